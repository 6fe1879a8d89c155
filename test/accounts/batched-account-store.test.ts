import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AccountStore } from "../../src/accounts/account-store.js";
import { hashKey } from "../../src/accounts/api-keys.js";
import { BatchedAccountStore } from "../../src/accounts/batched-account-store.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

describe("key lookups and allowance holds made together", () => {
  let database: Database;
  let store: BatchedAccountStore;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    store = new BatchedAccountStore(database.db);
  });
  afterAll(async () => database.close());

  it("each lookup gets its own key's row, and an unknown key nothing", async () => {
    const plain = new AccountStore(database.db);
    const made = await Promise.all(
      ["a", "b", "c"].map(async (n) => {
        const account = await plain.createAccount(n, "pro");
        return { account, ...(await plain.createKey(account.id, ["score"])) };
      }),
    );
    const rows = await Promise.all([
      ...made.map((m) => store.keyByHash(hashKey(m.key))),
      store.keyByHash(hashKey("tsk_unknown")),
    ]);
    expect(rows.map((r) => r?.accountId)).toEqual([...made.map((m) => m.account.id), undefined]);
    expect(rows[1]).toEqual(await plain.keyByHash(hashKey(made[1]!.key)));
  });

  it("30 holds at once on each of three Free accounts: exactly 10 each, never more", async () => {
    const plain = new AccountStore(database.db);
    const accounts = await Promise.all(["x", "y", "z"].map((n) => plain.createAccount(n, "free")));
    const holds = await Promise.all(
      accounts.flatMap((a) => Array.from({ length: 30 }, () => store.reserve(a.id, "2026-11", 10))),
    );
    for (let i = 0; i < 3; i++) expect(holds.slice(i * 30, i * 30 + 30).filter(Boolean)).toHaveLength(10);
    for (const a of accounts) expect(await plain.used(a.id, "2026-11")).toBe(10);
  });
});
