import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { packageRoot } from "../config/package-info.js";
import { StorageError } from "./storage-error.js";
import type { Db } from "./tables.js";

/** migrations/ sits at the package root, wherever this code runs from (src, build/src, a bundle). */
function migrationsDir(): string {
  const dir = join(packageRoot(), "migrations");
  if (existsSync(dir)) return dir;
  throw new StorageError("The migrations folder is missing from this installation.");
}

/**
 * Apply migrations/*.sql in name order, each once, all in one transaction: a failing migration leaves
 * none of this run's migrations applied. An advisory lock makes instances that start together take
 * turns instead of racing.
 */
export async function migrate(db: Db): Promise<string[]> {
  const dir = migrationsDir();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const applied: string[] = [];
  // One transaction under an advisory lock: instances starting together on a new database take turns,
  // and the second finds everything applied (creating the bookkeeping table is inside the lock too).
  await db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(734001)`.execute(tx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
      tx,
    );
    const done = new Set(
      (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(tx)).rows.map((r) => r.name),
    );
    for (const name of files) {
      if (done.has(name)) continue;
      await sql.raw(readFileSync(join(dir, name), "utf8")).execute(tx);
      await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(tx);
      applied.push(name);
    }
  });
  return applied;
}
