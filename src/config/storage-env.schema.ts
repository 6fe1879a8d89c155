import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { formatIssues } from "./env.schema.js";

/**
 * Storage, keys and the fleet. With none of these set the service is as it always was: an open API that
 * stores nothing and needs no database.
 */
export const StorageEnvSchema = z.object({
  /** `open` (the default): no credential. `keys`: every POST /score-task needs an API key and counts against its plan. */
  AUTH: z.enum(["open", "keys"]).default("open"),
  /** With keys: requests one key may have in scoring at once, per instance (beyond it: 429 rate_limited). */
  KEY_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(4),
  /** PostgreSQL, for several instances (a fleet). Without it, keys and plans use the embedded PGlite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "expected a postgres:// or postgresql:// URL")
    .optional(),
  /** PGlite's data folder (one process at a time: it is locked). */
  DATA_DIR: z.string().min(1).optional(),
  /** Redis, for the fleet's webhook queue (BullMQ). Needs DATABASE_URL too. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "expected a redis:// or rediss:// URL")
    .optional(),
  /** Key prefix of the fleet's queue in Redis (several deployments can share one Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .default("task-scorer"),
  /** Webhook jobs started per second across the whole fleet (GitHub's write limits are per App). */
  FLEET_JOBS_PER_SECOND: z.coerce.number().positive().default(2),
  /** Seconds a worker's claim on a job lasts; after a crash, another instance retries the job after this. */
  FLEET_LOCK_SECONDS: z.coerce.number().positive().default(30),
  /**
   * Octokit's own pacing of GitHub writes (one a second; three seconds between writes that notify
   * people). Keep it on against github.com; `off` is for a stand-in GitHub in tests and benchmarks.
   */
  GITHUB_THROTTLE: z.enum(["on", "off"]).default("on"),
  /** Tries per delivery, with exponential backoff from 2 s. */
  FLEET_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
});

export type StorageEnv = z.output<typeof StorageEnvSchema>;

export function parseStorageEnv(env: Record<string, string | undefined>): StorageEnv {
  const parsed = StorageEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(
      `Invalid environment: ${formatIssues(parsed.error)}. Fix the variable(s) and start again.`,
    );
  if (parsed.data.REDIS_URL && !parsed.data.DATABASE_URL)
    throw new ConfigError(
      "REDIS_URL is set without DATABASE_URL: a fleet shares its delivery records and usage in PostgreSQL. Set DATABASE_URL too.",
    );
  return parsed.data;
}

/** Whether this configuration needs a database at all (the open default needs none). */
export function needsDatabase(env: StorageEnv): boolean {
  return env.AUTH === "keys" || env.DATABASE_URL !== undefined || env.DATA_DIR !== undefined;
}
