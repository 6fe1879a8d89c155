import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The integration suite runs against the real PostgreSQL in DATABASE_URL (and Redis in REDIS_URL) when they
 * are set: `.ci/run` sets them, and then an unreachable server fails the suite instead of skipping it.
 * Each suite gets a database of its own, dropped afterwards.
 */
export const DATABASE_URL = process.env.DATABASE_URL;
export const REDIS_URL = process.env.REDIS_URL;

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!DATABASE_URL) throw new Error("DATABASE_URL is not set");
  const name = `ts_test_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
