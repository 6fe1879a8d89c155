import { z } from "zod";
import { ApprovalPolicySchema, type ApprovalPolicy } from "../core/approval.js";
import { ConfigError } from "../core/errors.js";

const optionalNumber = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const n = Number(s);
    if (s === "" || !Number.isFinite(n)) {
      ctx.addIssue({ code: "custom", message: `expected a number, got "${s}"` });
      return z.NEVER;
    }
    return n;
  })
  .optional();

const port = z.coerce.number().int().min(0).max(65535);

/**
 * The server's environment. Validated once at start; a bad value stops the process with a message
 * naming the variable, instead of surfacing later as a strange request failure.
 */
export const ServerEnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SCORER: z.enum(["auto", "offline", "openai"]).default("auto"),
  APPROVAL_MIN_AVERAGE: optionalNumber,
  APPROVAL_MIN_SCORE: optionalNumber,
  APPROVAL_MIN_SUPPORTERS: optionalNumber,
  APPROVAL_SUPPORT_SCORE: optionalNumber,
  /** Requests per minute per client address on /score-task; unset means no quota (the open default). */
  RATE_LIMIT_PER_MINUTE: optionalNumber,
  /** Seconds a request may take to arrive in full (slow clients are cut off). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  /** Behind a proxy: which proxies to believe for X-Forwarded-For (rate limits and logs then see the client). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => parseTrustProxy(v, ctx)),
  /** Log the App's name at start from GitHub's GET /app (or why that failed). */
  APP_STARTUP_CHECK: z.enum(["true", "false"], { error: "expected true or false" }).default("false"),
  /** A smee.io channel relaying webhooks to this server in local development (Probot's convention). */
  WEBHOOK_PROXY_URL: z
    .url({ protocol: /^https?$/, error: "expected a URL such as https://smee.io/abc123" })
    .optional(),
  /**
   * Registering the GitHub App from the start page writes credentials into .env, so it is offered only
   * where a stranger cannot reach it: "auto" (the default) offers it while the server listens on loopback
   * only and has no App credentials (not under NODE_ENV=production); "on" offers it on any address (with
   * PUBLIC_URL); "off" never.
   */
  REGISTRATION: z.enum(["auto", "on", "off"]).default("auto"),
  /**
   * The server's public base URL (https://scorer.example.com): the App's webhook and callback URLs are
   * built from it, never from a request's Host header.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "expected a base URL such as https://scorer.example.com" })
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  /** Origins allowed to call the API from a browser; unset means no CORS headers (same-origin only). */
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => parseCorsOrigins(v, ctx)),
});

/**
 * fastify's `trustProxy`: "true" trusts every hop (only when the proxy is the sole way in), a number
 * trusts that many hops, and a list trusts those addresses or CIDR ranges.
 */
function parseTrustProxy(value: string | undefined, ctx: z.RefinementCtx): boolean | number | string[] {
  const v = value?.trim() ?? "";
  if (v === "" || v === "false") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(",").map((s) => s.trim());
  if (
    list.every(
      (s) =>
        /^[\da-fA-F.:]+(\/\d{1,3})?$/.test(s) || s === "loopback" || s === "linklocal" || s === "uniquelocal",
    )
  )
    return list;
  ctx.addIssue({
    code: "custom",
    message: `expected true, false, a number of hops, or addresses/CIDR ranges separated by commas (e.g. 10.0.0.0/8,127.0.0.1)`,
  });
  return z.NEVER;
}

/** "*" or a comma-separated list of origins (scheme://host[:port], no path). */
function parseCorsOrigins(value: string | undefined, ctx: z.RefinementCtx): "*" | string[] | undefined {
  const v = value?.trim() ?? "";
  if (v === "") return undefined;
  if (v === "*") return "*";
  const list = v.split(",").map((s) => s.trim().replace(/\/$/, ""));
  const bad = list.filter((s) => {
    try {
      return new URL(s).origin !== s;
    } catch {
      return true;
    }
  });
  if (bad.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `expected * or origins like https://app.example.com separated by commas; not an origin: ${bad.join(", ")}`,
    });
    return z.NEVER;
  }
  return list;
}

export type ServerEnv = z.output<typeof ServerEnvSchema>;

export function formatIssues(error: z.ZodError, prefix = ""): string {
  return error.issues.map((i) => `${prefix}${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

export function parseServerEnv(env: Record<string, string | undefined>): ServerEnv {
  const parsed = ServerEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid environment: ${formatIssues(parsed.error)}. Fix the variable(s) and start again.`,
    );
  }
  return parsed.data;
}

export function approvalPolicyFromEnv(env: ServerEnv): ApprovalPolicy {
  const parsed = ApprovalPolicySchema.safeParse({
    ...(env.APPROVAL_MIN_AVERAGE !== undefined && { minAverage: env.APPROVAL_MIN_AVERAGE }),
    ...(env.APPROVAL_MIN_SCORE !== undefined && { minScore: env.APPROVAL_MIN_SCORE }),
    ...(env.APPROVAL_MIN_SUPPORTERS !== undefined && { minSupporters: env.APPROVAL_MIN_SUPPORTERS }),
    ...(env.APPROVAL_SUPPORT_SCORE !== undefined && { supportScore: env.APPROVAL_SUPPORT_SCORE }),
  });
  if (!parsed.success) {
    const names: Record<string, string> = {
      minAverage: "APPROVAL_MIN_AVERAGE",
      minScore: "APPROVAL_MIN_SCORE",
      minSupporters: "APPROVAL_MIN_SUPPORTERS",
      supportScore: "APPROVAL_SUPPORT_SCORE",
    };
    const text = parsed.error.issues
      .map((i) => `${names[String(i.path[0])] ?? i.path.join(".")}: ${i.message}`)
      .join("; ");
    throw new ConfigError(`Invalid approval thresholds: ${text}.`);
  }
  return parsed.data;
}
