import type { z } from "zod";
import { ConfigError } from "../core/errors.js";

/** Docker, Compose and Actions often pass unset variables as "": the sections treat them as unset. */
export const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export function formatIssues(error: z.ZodError, prefix = ""): string {
  return error.issues.map((i) => `${prefix}${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/**
 * Parse one section of the environment. A bad value stops the start with a message naming the variable
 * (values are not echoed: a misplaced key could be among them).
 */
export function parseSection<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  what = "environment",
  advice = " Fix the variable(s) and start again.",
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid ${what}: ${formatIssues(parsed.error)}.${advice}`);
  return parsed.data;
}
