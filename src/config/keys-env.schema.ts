import { z } from "zod";
import { parseSection } from "./env-parsing.js";

/** The keys section: whether the API is open or needs API keys counted against plans. */
export const KeysEnvSchema = z
  .object({
    /** `open` (the default): no credential. `keys`: every POST /score-task needs an API key and counts against its plan. */
    AUTH: z.enum(["open", "keys"]).default("open"),
    /** With keys: requests one key may have in scoring at once, per instance (beyond it: 429 rate_limited). */
    KEY_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(4),
  })
  .transform((e) => ({ auth: e.AUTH, maxConcurrentPerKey: e.KEY_MAX_CONCURRENT }));

export type KeysConfig = z.output<typeof KeysEnvSchema>;

export function parseKeysEnv(env: Record<string, string | undefined>): KeysConfig {
  return parseSection(KeysEnvSchema, env);
}
