import { z } from "zod";
import { parseSection } from "./env-parsing.js";

/**
 * The storage section. With neither variable set (and no keys), the service is as it always was: an open
 * API that stores nothing and needs no database.
 */
export const StorageEnvSchema = z
  .object({
    /** PostgreSQL, for several instances (a fleet). Without it, what is stored goes to the embedded PGlite in DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "expected a postgres:// or postgresql:// URL")
      .optional(),
    /**
     * The hot statements as named (prepared) statements on PostgreSQL. `off` behind a pooler that does not keep
     * them across transactions (PgBouncer in transaction mode without `max_prepared_statements`, Supavisor in
     * transaction mode); left on there, the first refusal switches the instance to unnamed statements by itself.
     */
    DATABASE_PREPARED_STATEMENTS: z.enum(["on", "off"], { error: "expected on or off" }).default("on"),
    /** PGlite's data folder (one process at a time: it is locked). */
    DATA_DIR: z.string().min(1).optional(),
  })
  .transform((e) => ({
    databaseUrl: e.DATABASE_URL,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === "on",
    /** Whether DATA_DIR was set: asking for a folder is asking for storage. */
    dataDirSet: e.DATA_DIR !== undefined,
    dataDir: e.DATA_DIR ?? "data",
  }));

export type StorageConfig = z.output<typeof StorageEnvSchema>;

export function parseStorageEnv(env: Record<string, string | undefined>): StorageConfig {
  return parseSection(StorageEnvSchema, env);
}
