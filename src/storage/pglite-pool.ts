import type { PostgresPool } from "kysely";

// PGlite: PostgreSQL in WASM, in-process. One session, so connections are taken in turn (a transaction
// holds it until it commits), which Kysely sees as a pool of one.

/** The part of PGlite the pool uses (tests may pass a stand-in). */
export interface PgliteLike {
  query<T>(query: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(query: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
}

export function pglitePool(pg: PgliteLike): PostgresPool {
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
