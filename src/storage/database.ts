import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Kysely, PostgresDialect, sql, type Generated, type PostgresPool } from "kysely";
import { TaskScorerError } from "../core/errors.js";

/** Row types, as the migrations in migrations/*.sql create them. */
export interface Tables {
  accounts: {
    id: string;
    name: string;
    plan: string;
    github_login: string | null;
    created_at: Generated<Date>;
    /** See migrations/006. */
    plan_effective_at: Date | null;
  };
  api_keys: {
    id: string;
    account_id: string;
    key_hash: string;
    hint: string;
    scopes: string[];
    created_at: Generated<Date>;
    expires_at: Date | null;
    revoked_at: Date | null;
  };
  usage_ledger: {
    id: Generated<string>;
    account_id: string;
    idempotency_key: string;
    period: string;
    quantity: Generated<number>;
    request_hash: string;
    report_id: string | null;
    source: string;
    created_at: Generated<Date>;
    /** The plan and its unit price when the task was counted (see migrations/006). */
    plan: string | null;
    unit_price_cents: Generated<number>;
  };
  usage_counters: { account_id: string; period: string; used: Generated<number> };
  reports: {
    id: string;
    account_id: string | null;
    visibility: string;
    /** JSON text (see migrations/004). */
    report: string;
    created_at: Generated<Date>;
  };
  webhook_deliveries: {
    id: string;
    event: string;
    /** JSON text (see migrations/004). */
    payload: string;
    status: Generated<string>;
    attempts: Generated<number>;
    last_error: string | null;
    received_at: Generated<Date>;
    finished_at: Date | null;
    claimed_until: Date | null;
  };
  score_cache: {
    key: string;
    /** JSON text, or null while an instance is scoring it (a claim). */
    verdicts: string | null;
    created_at: Generated<Date>;
  };
}

export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  engine: "postgres" | "pglite";
  close(): Promise<void>;
}

export class StorageError extends TaskScorerError {
  constructor(message: string) {
    super("storage_unavailable", message);
  }
}

// ---------------------------------------------------------------------------------------------------
// PGlite: PostgreSQL in WASM, in-process. One session, so connections are taken in turn (a transaction
// holds it until it commits), which Kysely sees as a pool of one.

interface PgliteLike {
  query<T>(query: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(query: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
}

function pglitePool(pg: PgliteLike): PostgresPool {
  let tail: Promise<void> = Promise.resolve();
  return {
    async connect() {
      let release!: () => void;
      const previous = tail;
      tail = new Promise<void>((r) => (release = r));
      await previous;
      const client = {
        async query<R>(text: string, parameters: readonly unknown[]) {
          // A migration file holds several statements, which only the simple protocol (exec) accepts.
          const result =
            parameters.length === 0 && text.includes(";")
              ? (((await pg.exec(text)).at(-1) as { rows: R[]; affectedRows?: number } | undefined) ?? {
                  rows: [] as R[],
                })
              : await pg.query<R>(text, [...parameters]);
          const command = (/^\s*(\w+)/.exec(text)?.[1] ?? "SELECT").toUpperCase();
          return {
            command: command as "SELECT",
            rowCount: result.affectedRows ?? result.rows.length,
            rows: result.rows,
          };
        },
        release,
      };
      // Kysely's streaming (cursor) form is never used here.
      return client as unknown as Awaited<ReturnType<PostgresPool["connect"]>>;
    },
    async end() {
      await tail;
      await pg.close();
    },
  };
}

/**
 * PGlite takes no lock on its folder, and two processes writing to one folder lose rows silently
 * (measured). So: an exclusive lock file holding our pid; a live holder stops the start.
 */
const lockedHere = new Set<string>();

function lockFolder(dir: string): () => void {
  const path = join(dir, ".task-scorer.lock");
  if (lockedHere.has(dir))
    throw new StorageError(
      `The data folder ${dir} is already open in this process; open it once and share it.`,
    );
  // Host and pid: in containers every process is pid 1, so a pid alone cannot tell two of them apart.
  const me = `${hostname()} ${process.pid}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, me);
      closeSync(fd);
      lockedHere.add(dir);
      return () => {
        lockedHere.delete(dir);
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const [host = "", pidText = ""] = readFileSync(path, "utf8").trim().split(" ");
      const holder = Number(pidText);
      // On this host, a lock whose process is gone (or is us, restarted) is taken over; another host's
      // lock cannot be checked, so it is respected.
      const held = host !== hostname() ? true : holder !== process.pid && isAlive(holder);
      if (held)
        throw new StorageError(
          `The data folder ${dir} is in use by another task-scorer process (pid ${holder}${host !== hostname() ? ` on ${host}` : ""}). ` +
            "Stop it, or give this one its own DATA_DIR; to run several instances, use DATABASE_URL (PostgreSQL). " +
            `If that process is gone, delete ${path}.`,
        );
      unlinkSync(path); // left by a process that died: take it over
    }
  }
  throw new StorageError(`Could not lock the data folder ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface OpenOptions {
  /** postgres://… for PostgreSQL; absent for PGlite. */
  url?: string | undefined;
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
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    database = { db, engine: "postgres", close: () => db.destroy() };
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
      const pg = new PGlite(inMemory ? undefined : resolve(dir));
      await pg.waitReady;
      const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pglitePool(pg) }) });
      database = {
        db,
        engine: "pglite",
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

const here = dirname(fileURLToPath(import.meta.url));
/** migrations/ sits at the package root: two levels up from src/storage, three from build/src/storage. */
function migrationsDir(): string {
  for (const rel of ["../../migrations", "../../../migrations"]) {
    const dir = resolve(here, rel);
    if (existsSync(dir)) return dir;
  }
  throw new StorageError("The migrations folder is missing from this installation.");
}

/**
 * Apply migrations/*.sql in name order, each once, each in its own transaction. An advisory lock makes
 * instances that start together take turns instead of racing.
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
