import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import { lockFolder } from "./folder-lock.js";
import { migrate } from "./migrator.js";
import { listenOnPglite, listenOnPostgres, type Listener, type NoticeHandlers } from "./notifications.js";
import { pglitePool } from "./pglite-pool.js";
import { withPreparedStatements } from "./prepared-statements.js";
import { pgliteOptions } from "./pglite-seed.js";
import { StorageError } from "./storage-error.js";
import type { Db, Tables } from "./tables.js";

export interface Database {
  db: Db;
  engine: "postgres" | "pglite";
  /** Change notices from every instance on this database (LISTEN/NOTIFY), e.g. keys revoked elsewhere. */
  listen(channel: string, handlers: NoticeHandlers): Promise<Listener>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… for PostgreSQL; absent for PGlite. */
  url?: string | undefined;
  /** PostgreSQL only: send the hot statements as named statements (default on; see prepared-statements.ts). */
  preparedStatements?: boolean | undefined;
  /** PGlite's data folder; "memory://" keeps everything in memory (tests). */
  dataDir?: string | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  let database: Database;
  if (options.url) {
    const pg = await import("pg");
    const pool = new pg.default.Pool({ connectionString: options.url, max: 10 });
    pool.on("error", () => {
      // An idle client lost its connection; the pool replaces it. Queries report their own errors.
    });
    try {
      const client = await pool.connect();
      client.release();
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new StorageError(
        `Cannot connect to the database in DATABASE_URL (${(err as Error).message}). Check that PostgreSQL is running and the URL is right.`,
      );
    }
    const db = new Kysely<Tables>({
      dialect: new PostgresDialect({
        pool: options.preparedStatements === false ? pool : withPreparedStatements(pool),
      }),
    });
    const url = options.url;
    database = {
      db,
      engine: "postgres",
      listen: (channel, handlers) => listenOnPostgres(url, channel, handlers),
      close: () => db.destroy(),
    };
  } else {
    const dir = options.dataDir ?? "memory://";
    const inMemory = dir.startsWith("memory://");
    let unlock = () => {};
    if (!inMemory) {
      mkdirSync(dir, { recursive: true });
      unlock = lockFolder(resolve(dir));
    }
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      const folder = inMemory ? undefined : resolve(dir);
      const pg = new PGlite(folder, pgliteOptions(folder));
      await pg.waitReady;
      const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pglitePool(pg) }) });
      database = {
        db,
        engine: "pglite",
        listen: (channel, handlers) => listenOnPglite(pg, channel, handlers),
        close: async () => {
          await db.destroy();
          unlock();
        },
      };
    } catch (err) {
      unlock();
      throw err;
    }
  }
  await migrate(database.db);
  return database;
}
