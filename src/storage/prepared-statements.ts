import type { PostgresPool } from "kysely";

/**
 * Hot statements by name. PostgreSQL parses and plans an unnamed statement on every execution: for the keyed
 * path's fixed texts (the rate's take, the allowance's hold, the ledger's batch, the key lookups) that was most
 * of the database's CPU per request. A text given to `prepared` is sent as a named statement on PostgreSQL, parsed
 * once per connection; every other text goes as before. The texts are fixed in the code (never built from
 * input; the ledger's batch has one per batch size, at most 64), so the names per connection stay bounded.
 *
 * A pooler that does not keep named statements across transactions (PgBouncer in transaction mode without
 * `max_prepared_statements`, Supavisor in transaction mode) answers "prepared statement … does not exist" or
 * "… already exists": the statement did not run, so it is sent again unnamed, and this pool sends everything
 * unnamed from then on. `DATABASE_PREPARED_STATEMENTS=off` skips names from the start.
 */
const names = new Map<string, string>();

export function prepared(text: string): string {
  if (!names.has(text)) names.set(text, `ts_${names.size + 1}`);
  return text;
}

interface Queryable {
  query(...args: unknown[]): unknown;
}

/** invalid_sql_statement_name (no such statement) and duplicate_prepared_statement: raised before it runs. */
const NOT_KEPT = new Set(["26000", "42P05"]);

type ConnectCallback = (err: Error | undefined, client: unknown, done: unknown) => void;

/** node-postgres's pool, with the texts given to `prepared` sent as named statements. */
export function withPreparedStatements<P extends PostgresPool>(pool: P): P {
  const patched = new WeakSet<object>();
  let named = true;
  const patch = (client: object) => {
    if (patched.has(client)) return;
    patched.add(client);
    const c = client as Queryable;
    const query = c.query.bind(c);
    c.query = (...args: unknown[]) => {
      const [text, values] = args;
      const name = named && typeof text === "string" ? names.get(text) : undefined;
      if (!name) return query(...args);
      return (query({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
        if (!NOT_KEPT.has((err as { code?: string } | null)?.code ?? "")) throw err;
        named = false;
        return query(text, values);
      });
    };
  };
  const connect = (pool.connect as (cb?: ConnectCallback) => Promise<object> | undefined).bind(pool);
  // Both of node-postgres's forms: a promise (Kysely), or a callback (the pool's own `query`).
  (pool as { connect: unknown }).connect = (cb?: ConnectCallback) => {
    if (typeof cb === "function")
      return connect((err, client, done) => {
        if (client) patch(client as object);
        cb(err, client, done);
      });
    return connect()!.then((client) => {
      patch(client);
      return client;
    });
  };
  return pool;
}
