import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AccountStore } from "../../src/accounts/account-store.js";
import { LedgerBatcher, type BatchedCharge } from "../../src/accounts/ledger-batcher.js";
import { PLANS } from "../../src/core/plans.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

describe("group commit of the ledger for plans without an allowance", () => {
  let database: Database;
  let accountId: string;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    accountId = (await new AccountStore(database.db).createAccount("Acme", "pro")).id;
  });
  afterAll(async () => database.close());

  const charge = (key: string, extra: Partial<BatchedCharge> = {}): BatchedCharge => ({
    accountId,
    plan: PLANS.pro,
    period: "2026-11",
    idempotencyKey: key,
    requestHash: `hash-${key}`,
    source: "api",
    report: { task: key },
    ...extra,
  });

  const count = async (table: "usage_ledger" | "reports") =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("50 parallel charges: each answered only after its row is committed, in a few statements", async () => {
    const batcher = new LedgerBatcher(database.db, { maxWaitMs: 5, maxBatch: 64 });
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => batcher.charge(charge(`k${i}`))));
    expect(outcomes.every((o) => o.outcome === "charged")).toBe(true);
    expect(new Set(outcomes.map((o) => o.reportId)).size).toBe(50);
    expect(await count("usage_ledger")).toBe(50);
    expect(await count("reports")).toBe(50);
    expect(batcher.statements).toBeLessThanOrEqual(2);
    // Each answer names a report that is really stored.
    const stored = await new AccountStore(database.db).report(outcomes[7]!.reportId!);
    expect(stored?.report).toEqual({ task: "k7" });
  });

  it("never more rows in one statement than maxBatch: the rest follow in the next statements", async () => {
    const batcher = new LedgerBatcher(database.db, { maxWaitMs: 5, maxBatch: 8 });
    const before = await count("usage_ledger");
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => batcher.charge(charge(`cap${i}`))),
    );
    expect(outcomes.every((o) => o.outcome === "charged")).toBe(true);
    expect(await count("usage_ledger")).toBe(before + 30);
    expect(batcher.statements).toBeGreaterThanOrEqual(4); // 30 rows, 8 at most each
  });

  it("stores each report exactly as scored, whatever its text holds, beside its neighbours in the batch", async () => {
    const batcher = new LedgerBatcher(database.db, { maxWaitMs: 5 });
    const tricky = [
      'quotes " and backslashes \\ and \\" together',
      "a NUL \u0000 and a lone surrogate \ud800 and an emoji 🏗️",
      "{not json} [1, 2] ,'single' $1 $2",
    ];
    const outcomes = await Promise.all(
      tricky.map((task, i) => batcher.charge(charge(`tricky-${i}`, { report: { task } }))),
    );
    const store = new AccountStore(database.db);
    for (const [i, o] of outcomes.entries()) {
      expect(o.outcome).toBe("charged");
      expect((await store.report(o.reportId!))?.report).toEqual({ task: tricky[i] });
    }
  });

  it("the same Idempotency-Key twice in one batch, and once more later, counts once", async () => {
    const batcher = new LedgerBatcher(database.db, { maxWaitMs: 5 });
    const before = await count("usage_ledger");
    const [a, b] = await Promise.all([batcher.charge(charge("twin")), batcher.charge(charge("twin"))]);
    const later = await batcher.charge(charge("twin"));
    const charged = [a, b].filter((o) => o!.outcome === "charged");
    expect(charged).toHaveLength(1);
    expect([a, b, later].filter((o) => o!.outcome === "duplicate")).toHaveLength(2);
    for (const o of [a, b, later]) expect(o!.reportId).toBe(charged[0]!.reportId);
    expect(await count("usage_ledger")).toBe(before + 1);
  });

  it("a row that cannot be written fails alone: its neighbours in the batch are still counted", async () => {
    const batcher = new LedgerBatcher(database.db, { maxWaitMs: 5 });
    const before = await count("usage_ledger");
    const results = await Promise.allSettled([
      batcher.charge(charge("good-1")),
      batcher.charge(charge("bad", { accountId: "acct_missing" })), // breaks the foreign key
      batcher.charge(charge("good-2")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await count("usage_ledger")).toBe(before + 2);
  });
});
