import { readdirSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { sql } from "kysely";
import { openDatabase } from "../../src/storage/database.js";
import { bearer, keyedServer, type KeyedServer } from "../helpers/keyed-server.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

describeUnless(missingEnv(["DATABASE_URL"]), "two instances on one PostgreSQL database", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let a: KeyedServer;
  let b: KeyedServer;

  beforeAll(async () => {
    db = await freshDatabase();
    // Two servers, each with its own connection pool: the race for the last task is real, in the database.
    a = await keyedServer({ url: db.url });
    b = await keyedServer({ url: db.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it("applies the same migrations once, whoever starts first", async () => {
    const again = await openDatabase({ url: db.url });
    const rows = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`.execute(
      again.db,
    );
    await again.close();
    const files = readdirSync(new URL("../../migrations", import.meta.url)).filter((f) => f.endsWith(".sql"));
    expect(rows.rows.map((r) => r.name)).toEqual(files.sort());
  });

  it("instances starting at the same moment on a new database all start (migrations take turns)", async () => {
    const fresh = await freshDatabase();
    try {
      const opened = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url: fresh.url })));
      await Promise.all(opened.map((d) => d.close()));
    } finally {
      await fresh.drop();
    }
  });

  it("80 concurrent requests with one Free key give exactly 10 reports, and ledger and counter agree", async () => {
    const account = await a.store.createAccount("free-fleet", "free");
    const { key } = await a.store.createKey(account.id, ["score", "usage:read"]);
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        (i % 2 ? a : b).app.inject({
          method: "POST",
          url: "/score-task",
          headers: bearer(key),
          payload: { task: `Add CSV export ${i}` },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(70);
    const period = new Date().toISOString().slice(0, 7);
    expect(await a.store.used(account.id, period)).toBe(10);
    expect(await b.store.ledgerTotal(account.id, period)).toBe(10);
    const reports = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM reports WHERE account_id = ${account.id}`.execute(a.database.db);
    expect(Number(reports.rows[0]!.n)).toBe(10);
  });

  it("a duplicate Idempotency-Key sent to both instances at once is charged once", async () => {
    const account = await a.store.createAccount("payg-fleet", "payg");
    const { key } = await a.store.createKey(account.id, ["score", "usage:read"]);
    const send = (s: KeyedServer) =>
      s.app.inject({
        method: "POST",
        url: "/score-task",
        headers: { ...bearer(key), "idempotency-key": "order-42" },
        payload: { task: "Add CSV export" },
      });
    const results = await Promise.all([send(a), send(b), send(a), send(b)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.headers["x-report-id"])).size).toBe(1);
    const usage = await a.app.inject({ url: "/usage", headers: bearer(key) });
    expect(usage.json()).toMatchObject({ tasksUsed: 1, amountDueUsd: 1 });
  });
});
