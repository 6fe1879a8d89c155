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
});

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
