import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pg from "pg";
import { listenOnPostgres, type Listener } from "../../src/storage/notifications.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describeUnless(missingEnv(["DATABASE_URL"]), "change notices on PostgreSQL (LISTEN/NOTIFY)", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let sender: pg.Client;
  beforeAll(async () => {
    db = await freshDatabase();
    sender = new pg.Client({ connectionString: db.url });
    await sender.connect();
  });
  afterAll(async () => {
    await sender.end();
    await db.drop();
  });

  it("delivers a notice sent in a transaction when it commits, and none for one rolled back", async () => {
    const got: string[] = [];
    const listener: Listener = await listenOnPostgres(db.url, "test_notices", {
      onNotice: (p) => got.push(p),
      onReset: () => undefined,
    });
    try {
      expect(listener.listening).toBe(true);
      await sender.query("BEGIN");
      await sender.query("SELECT pg_notify('test_notices', 'rolled back')");
      await sender.query("ROLLBACK");
      await sender.query("BEGIN");
      await sender.query("SELECT pg_notify('test_notices', 'committed')");
      await new Promise((r) => setTimeout(r, 100));
      expect(got).toEqual([]); // not before the commit
      await sender.query("COMMIT");
      await until(() => got.length > 0);
      expect(got).toEqual(["committed"]);
    } finally {
      await listener.close();
    }
  });

  it("says when its connection drops, reconnects by itself, and receives notices again", async () => {
    const resets: boolean[] = [];
    const got: string[] = [];
    const listener = await listenOnPostgres(
      db.url,
      "test_notices",
      { onNotice: (p) => got.push(p), onReset: (l) => resets.push(l) },
      { maxBackoffMs: 200 },
    );
    try {
      expect(resets).toEqual([true]);
      // An administrator (or a failover) ends the listener's session.
      await sender.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN \"test_notices\"' AND pid <> pg_backend_pid()",
      );
      await until(() => resets.length >= 3);
      expect(resets.slice(0, 3)).toEqual([true, false, true]);
      expect(listener.listening).toBe(true);
      await sender.query("SELECT pg_notify('test_notices', 'after the drop')");
      await until(() => got.includes("after the drop"));
    } finally {
      await listener.close();
    }
  });
});

describe("change notices on the embedded database (PGlite)", () => {
  it("a key revoked in this process is announced to its listener", async () => {
    const { openDatabase } = await import("../../src/storage/database.js");
    const { AccountStore } = await import("../../src/accounts/account-store.js");
    const database = await openDatabase({ dataDir: "memory://" });
    const got: string[] = [];
    const listener = await database.listen("task_scorer_keys", {
      onNotice: (p) => got.push(p),
      onReset: () => undefined,
    });
    try {
      const store = new AccountStore(database.db);
      const account = await store.createAccount("Acme", "pro");
      const { record } = await store.createKey(account.id, ["score"]);
      expect(await store.revokeKey(record.id)).toBe(true);
      expect(await store.revokeKey(record.id)).toBe(false); // already revoked: no change, no notice
      expect(await store.setPlan(account.id, "free")).toBe(true);
      await until(() => got.length >= 2, 1000);
      expect(got.map((p) => JSON.parse(p))).toEqual([{ key: record.id }, { account: account.id }]);
    } finally {
      await listener.close();
      await database.close();
    }
  });
});
