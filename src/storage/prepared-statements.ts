import type { PostgresPool } from "kysely";

/**
 * Hot statements by name. PostgreSQL parses and plans an unnamed statement on every execution: for the keyed
 * path's fixed texts (the rate's take, the allowance's hold, the ledger's batch) that was most of the database's
 * CPU per request. A text given to `prepared` is sent as a named statement on PostgreSQL, parsed once per
 * connection; every other text goes as before. The texts are fixed at start (never built from input), so the
 * names per connection stay few.
 */
const names = new Map<string, string>();

export function prepared(text: string): string {
  if (!names.has(text)) names.set(text, `ts_${names.size + 1}`);
  return text;
}

interface Queryable {
  query(...args: unknown[]): unknown;
}

const patched = new WeakSet<object>();

/** node-postgres's pool, with the texts given to `prepared` sent as named statements. */
export function withPreparedStatements<P extends PostgresPool>(pool: P): P {
  const connect = pool.connect.bind(pool);
  pool.connect = async () => {
    const client = await connect();
    if (!patched.has(client)) {
      patched.add(client);
      const c = client as unknown as Queryable;
      const query = c.query.bind(c);
      c.query = (...args: unknown[]) => {
        const [text, values] = args;
        const name = typeof text === "string" ? names.get(text) : undefined;
        return name ? query({ name, text, values }) : query(...args);
      };
    }
    return client;
  };
  return pool;
}
