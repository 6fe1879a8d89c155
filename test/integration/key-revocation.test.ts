import { afterAll, beforeAll, expect, it } from "@jest/globals";
import pg from "pg";
import pino from "pino";
import { runAdmin } from "../../src/admin/admin-commands.js";
import { composeService, type Service } from "../../src/compose-service.js";
import { loadServiceConfig } from "../../src/config/service-config.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

describeUnless(
  missingEnv(["DATABASE_URL"]),
  "keys cached on two instances, revoked everywhere at once",
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    const instances: Service[] = [];
    const env = () => ({ DATABASE_URL: db.url });
    const admin = async (...argv: string[]) => {
      const lines: string[] = [];
      await runAdmin(argv, env(), (l) => lines.push(l));
      return lines.join("\n");
    };
    const score = (s: Service, key: string) =>
      s.server.inject({
        method: "POST",
        url: "/score-task",
        headers: { authorization: `Bearer ${key}` },
        payload: { task: "Add CSV export" },
      });
    /** Milliseconds until both instances answer `status` for this key (at most `limit`). */
    const until = async (key: string, status: number, limit = 1000) => {
      const start = Date.now();
      for (;;) {
        const codes = await Promise.all(instances.map(async (s) => (await score(s, key)).statusCode));
        if (codes.every((c) => c === status)) return Date.now() - start;
        if (Date.now() - start > limit) throw new Error(`still ${codes.join(", ")} after ${limit} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const newKey = async (accountId: string) => {
      const out = await admin("keys", "create", accountId);
      return { key: out.split("\n")[0]!, id: /\(key (key_\S+);/.exec(out)![1]! };
    };

    beforeAll(async () => {
      db = await freshDatabase();
      for (let i = 0; i < 2; i++)
        instances.push(
          await composeService(loadServiceConfig({ SCORER: "offline", AUTH: "keys", DATABASE_URL: db.url }), {
            logger: pino({ level: "silent" }),
          }),
        );
    });
    afterAll(async () => {
      for (const s of instances) await s.close(0);
      await db?.drop();
    });

    it("a key revoked with the admin CLI gets 401 on both instances within 1 s", async () => {
      const account = JSON.parse(await admin("accounts", "create", "--name", "Acme", "--plan", "pro"));
      const { key, id } = await newKey(account.id);
      // Both instances have verified (and kept) the key.
      for (let i = 0; i < 3; i++) expect(await until(key, 200)).toBeLessThan(1000);
      await admin("keys", "revoke", id);
      await until(key, 401);
      const body = (await score(instances[1]!, key)).json();
      expect(body.error.message).toMatch(/revoked/);
    });

    it("a plan change reaches both instances within 1 s (the Free plan's allowance headers appear)", async () => {
      const account = JSON.parse(await admin("accounts", "create", "--name", "Beta", "--plan", "pro"));
      const { key } = await newKey(account.id);
      await until(key, 200);
      expect((await score(instances[0]!, key)).headers["ratelimit-limit"]).toBeUndefined();
      await admin("accounts", "plan", account.id, "free");
      const start = Date.now();
      for (;;) {
        const limits = await Promise.all(
          instances.map(async (s) => (await score(s, key)).headers["ratelimit-limit"]),
        );
        if (limits.every((l) => l === "10")) break;
        if (Date.now() - start > 1000) throw new Error(`plan change not seen: ${limits.join(", ")}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    });

    it("with the notice connection cut, a revocation still takes effect at once (nothing is trusted from memory)", async () => {
      const account = JSON.parse(await admin("accounts", "create", "--name", "Gamma", "--plan", "pro"));
      const { key, id } = await newKey(account.id);
      await until(key, 200);
      // A failover or an administrator ends every listening session.
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()",
      );
      await c.end();
      await admin("keys", "revoke", id);
      await until(key, 401);
      // And once the listeners are back, caching resumes and still hears the next revocation.
      const second = await newKey(account.id);
      await new Promise((r) => setTimeout(r, 500));
      await until(second.key, 200);
      await admin("keys", "revoke", second.id);
      await until(second.key, 401);
    });

    it("80 concurrent requests with one Free key on both instances give exactly 10 reports; ledger and counter agree", async () => {
      const account = JSON.parse(await admin("accounts", "create", "--name", "Delta", "--plan", "free"));
      const { key } = await newKey(account.id);
      const results = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          instances[i % 2]!.server.inject({
            method: "POST",
            url: "/score-task",
            headers: { authorization: `Bearer ${key}` },
            payload: { task: `Add CSV export ${i}` },
          }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(70);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const ledger = await c.query("SELECT count(*)::int AS n FROM usage_ledger WHERE account_id = $1", [
        account.id,
      ]);
      const counter = await c.query("SELECT used FROM usage_counters WHERE account_id = $1", [account.id]);
      await c.end();
      expect([ledger.rows[0].n, counter.rows[0].used]).toEqual([10, 10]);
    });
  },
);
