import { z } from "zod";
import { parseSection } from "./env-parsing.js";

/** The fleet section: several instances sharing one webhook queue in Redis (BullMQ). */
export const FleetEnvSchema = z
  .object({
    /** Redis, for the fleet's webhook queue. Needs DATABASE_URL too. */
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
    /** Tries per delivery, with exponential backoff from 2 s. */
    FLEET_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  })
  .transform((e) => ({
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    jobsPerSecond: e.FLEET_JOBS_PER_SECOND,
    lockMs: e.FLEET_LOCK_SECONDS * 1000,
    attempts: e.FLEET_ATTEMPTS,
  }));

export type FleetConfig = z.output<typeof FleetEnvSchema>;

export function parseFleetEnv(env: Record<string, string | undefined>): FleetConfig {
  return parseSection(FleetEnvSchema, env);
}
