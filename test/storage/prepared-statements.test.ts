import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { sql } from "kysely";
import { AccountStore } from "../../src/accounts/account-store.js";
import { parseStorageEnv } from "../../src/config/storage-env.schema.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import { prepared, withPreparedStatements } from "../../src/storage/prepared-statements.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

describe("hot statements sent by name", () => {
  function fakePool(refuseNames = false) {
    const calls: unknown[][] = [];
    const client = {
      query: async (...args: unknown[]) => {
        calls.push(args);
        if (refuseNames && typeof args[0] === "object")
          throw Object.assign(new Error('prepared statement "ts_1" does not exist'), { code: "26000" });
        return { rows: [] };
      },
      release: () => undefined,
    };
    const pool = {
      connect: (cb?: (err: undefined, c: typeof client, done: () => void) => void) => {
        if (cb) {
          cb(undefined, client, () => undefined);
          return undefined;
        }
        return Promise.resolve(client);
      },
      end: async () => undefined,
    };
    const wrapped = withPreparedStatements(pool as never) as unknown as {
      connect: (() => Promise<typeof client>) & ((cb: (err: unknown, c: typeof client) => void) => void);
    };
    return { pool: wrapped, calls };
  }

  it("a text given to `prepared` goes as a named statement, any other text as it came", async () => {
    const hot = prepared("SELECT $1::int + 1 AS n -- prepared-statements.test");
    const { pool, calls } = fakePool();
    const client = await pool.connect();
    await client.query(hot, [1]);
    await client.query("SELECT 2", []);
    expect(calls[0]).toEqual([{ name: expect.stringMatching(/^ts_\d+$/), text: hot, values: [1] }]);
    expect(calls[1]).toEqual(["SELECT 2", []]);
  });

  it("a pooler that does not keep named statements: sent again unnamed, and unnamed from then on", async () => {
    const hot = prepared("SELECT $1::int AS n -- prepared-statements.test, pooler");
    const { pool, calls } = fakePool(true);
    const client = await pool.connect();
    await expect(client.query(hot, [1])).resolves.toEqual({ rows: [] });
    await client.query(hot, [2]);
    expect(calls).toEqual([
      [{ name: expect.stringMatching(/^ts_\d+$/), text: hot, values: [1] }],
      [hot, [1]],
      [hot, [2]],
    ]);
  });

  it("node-postgres's callback form of connect (its own pool.query) gets the same client", async () => {
    const hot = prepared("SELECT $1::int AS n -- prepared-statements.test, callback");
    const { pool, calls } = fakePool();
    const client = await new Promise<{ query: (...a: unknown[]) => Promise<unknown> }>((resolve) =>
      pool.connect((_err, c) => resolve(c)),
    );
    await client.query(hot, [3]);
    expect(calls[0]).toEqual([{ name: expect.stringMatching(/^ts_\d+$/), text: hot, values: [3] }]);
  });

  it("the same text keeps one name, on every connection, and the client is wrapped once", async () => {
    const hot = prepared("SELECT $1::text AS s -- prepared-statements.test, twice");
    expect(prepared(hot)).toBe(hot);
    const { pool, calls } = fakePool();
    for (let i = 0; i < 3; i++) await (await pool.connect()).query(hot, [String(i)]);
    const names = calls.map((c) => (c[0] as { name: string }).name);
    expect(new Set(names).size).toBe(1);
    expect(calls.map((c) => (c[0] as { values: string[] }).values)).toEqual([["0"], ["1"], ["2"]]);
  });

  it("a value other than on or off stops the start with a sentence that says so", () => {
    expect(() => parseStorageEnv({ DATABASE_PREPARED_STATEMENTS: "yes" })).toThrow(
      /DATABASE_PREPARED_STATEMENTS.*expected on or off/s,
    );
  });
});

describeUnless(missingEnv(["DATABASE_URL"]), "hot statements on PostgreSQL", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;

  beforeAll(async () => {
    fresh = await freshDatabase();
    database = await openDatabase({ url: fresh.url });
  });
  afterAll(async () => {
    await database?.close();
    await fresh?.drop();
  });

  it("the allowance's hold is parsed once per connection and still stops at the allowance", async () => {
    const store = new AccountStore(database.db);
    const account = await store.createAccount("prepared", "free");
    const held: boolean[] = [];
    // One after another, so the pool hands out the same connection each time.
    for (let i = 0; i < 4; i++) held.push(await store.reserve(account.id, "2026-11", 3));
    expect(held).toEqual([true, true, true, false]);
    const statements = await sql<{ statement: string }>`
      SELECT statement FROM pg_prepared_statements WHERE name LIKE 'ts\\_%'`.execute(database.db);
    expect(statements.rows.filter((r) => r.statement.includes("INSERT INTO usage_counters"))).toHaveLength(1);
  });

  it("DATABASE_PREPARED_STATEMENTS=off (a pooler that drops them) sends every statement unnamed", async () => {
    const storage = parseStorageEnv({ DATABASE_URL: fresh.url, DATABASE_PREPARED_STATEMENTS: "off" });
    expect(storage.preparedStatements).toBe(false);
    const plain = await openDatabase({ url: fresh.url, preparedStatements: storage.preparedStatements });
    try {
      const store = new AccountStore(plain.db);
      const account = await store.createAccount("unprepared", "free");
      expect(await store.reserve(account.id, "2026-11", 1)).toBe(true);
      expect(await store.reserve(account.id, "2026-11", 1)).toBe(false);
      const statements = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(
        plain.db,
      );
      expect(statements.rows).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
