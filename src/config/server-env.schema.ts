import { z } from "zod";
import { ApprovalPolicySchema, type ApprovalPolicy } from "../core/approval.js";
import { ConfigError } from "../core/errors.js";
import { parseSection } from "./env-parsing.js";

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

/** A count per minute: a whole number, 1 or more (0 or less would refuse every request, a fraction rounds to it). */
const perMinute = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const n = Number(s);
    if (s === "" || !Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: "custom", message: `expected a whole number of requests, 1 or more, got "${s}"` });
      return z.NEVER;
    }
    return n;
  })
  .optional();

const port = z.coerce.number().int().min(0).max(65535);

/**
 * The server section: where it listens, how it treats requests and who may call it from a browser.
 * Validated once at start; a bad value stops the process with a message naming the variable, instead of
 * surfacing later as a strange request failure.
 */
export const ServerEnvSchema = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Requests per minute per client address on /score-task; unset means no quota (the open default). */
    RATE_LIMIT_PER_MINUTE: perMinute,
    /**
     * Board and tasks-API requests per minute per client (signed-in user, else address); unset means the routes'
     * TASKS_PER_MINUTE (1,200). Behind a proxy without TRUST_PROXY every visitor shares one address: raise it, or set
     * TRUST_PROXY.
     */
    BACKLOG_REQUESTS_PER_MINUTE: perMinute,
    /** Seconds a request may take to arrive in full (slow clients are cut off). */
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
    /** Behind a proxy: which proxies to believe for X-Forwarded-For (rate limits and logs then see the client). */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx) => parseTrustProxy(v, ctx)),
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
  })
  .transform((e) => ({
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    backlogRequestsPerMinute: e.BACKLOG_REQUESTS_PER_MINUTE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL,
    corsOrigins: e.CORS_ORIGINS,
  }));

export type ServerConfig = z.output<typeof ServerEnvSchema>;

/** The approval section: the thresholds every report (REST, App, Action, CLI) is judged by. */
export const ApprovalEnvSchema = z.object({
  APPROVAL_MIN_AVERAGE: optionalNumber,
  APPROVAL_MIN_SCORE: optionalNumber,
  APPROVAL_MIN_SUPPORTERS: optionalNumber,
  APPROVAL_SUPPORT_SCORE: optionalNumber,
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

export function parseServerEnv(env: Record<string, string | undefined>): ServerConfig {
  return parseSection(ServerEnvSchema, env);
}

/** The approval thresholds, with the policy's own defaults for those not set. */
export function approvalPolicyFromEnv(env: Record<string, string | undefined>): ApprovalPolicy {
  const e = parseSection(ApprovalEnvSchema, env);
  const parsed = ApprovalPolicySchema.safeParse({
    ...(e.APPROVAL_MIN_AVERAGE !== undefined && { minAverage: e.APPROVAL_MIN_AVERAGE }),
    ...(e.APPROVAL_MIN_SCORE !== undefined && { minScore: e.APPROVAL_MIN_SCORE }),
    ...(e.APPROVAL_MIN_SUPPORTERS !== undefined && { minSupporters: e.APPROVAL_MIN_SUPPORTERS }),
    ...(e.APPROVAL_SUPPORT_SCORE !== undefined && { supportScore: e.APPROVAL_SUPPORT_SCORE }),
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
