import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { KeyRow } from "../../src/accounts/key-access.js";
import { KEY_NOTICES, KeyCache } from "../../src/accounts/key-cache.js";
import { MemoryRateLimiter } from "../../src/accounts/plan-rate-limit.js";
import { PLANS, type PlanId } from "../../src/core/plans.js";
import type { Listener } from "../../src/storage/notifications.js";
import { bearer, keyedServer, type KeyedServer } from "../helpers/keyed-server.js";

describe("requests per minute by plan, on the API", () => {
  let s: KeyedServer;
  let notices: Listener;
  const cache = new KeyCache<KeyRow>();
  let now = Date.parse("2026-11-20T12:00:00Z");
  beforeAll(async () => {
    s = await keyedServer({ limiter: new MemoryRateLimiter(() => now), cache });
    // Verified keys are kept in memory, as on a running server: a plan change must still be read at once.
    notices = await s.database.listen(KEY_NOTICES, cache.handlers);
  });
  afterAll(async () => {
    await notices.close();
    await s.close();
  });

  const post = (key: string, task: string, headers: Record<string, string> = {}) =>
    s.app.inject({
      method: "POST",
      url: "/score-task",
      headers: { ...bearer(key), ...headers },
      payload: { task },
    });
  const keyOn = async (plan: PlanId) => {
    const account = await s.store.createAccount(`rate-${plan}`, plan);
    return { account, key: (await s.store.createKey(account.id, ["score"])).key };
  };

  it("a Pay-as-you-go key's burst passes, the next request is 429 rate_limited with Retry-After and the policy", async () => {
    const { key } = await keyOn("payg");
    const { burst, perMinute } = PLANS.payg.rateLimit;
    for (let i = 0; i < burst; i++) expect((await post(key, `Add export ${i}`)).statusCode).toBe(200);
    const refused = await post(key, "Add export, once more");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(refused.json().error.message).toMatch(/allows 120 requests a minute, 30 at once/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.headers["ratelimit-policy"]).toBe(`${perMinute};w=60;burst=${burst}`);
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
  });

  it("a Free key with its allowance used up is answered quota_exceeded, not rate_limited, though its burst is spent too", async () => {
    const { key } = await keyOn("free");
    for (let i = 0; i < 10; i++) expect((await post(key, `Add import ${i}`)).statusCode).toBe(200);
    for (const wait of [0, 60_000]) {
      now += wait;
      const refused = await post(key, "Add import, once more");
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("quota_exceeded");
      expect(refused.json().error.message).toMatch(/10 tasks for 2026-11 are used up/);
    }
  });

  it("an upgrade takes effect on the next request, for the allowance and the per-minute limit (the key was in memory)", async () => {
    const { account, key } = await keyOn("free");
    for (let i = 0; i < 10; i++) expect((await post(key, `Add search ${i}`)).statusCode).toBe(200);
    expect((await post(key, "Add search, over")).statusCode).toBe(429);
    expect(cache.size).toBeGreaterThan(0);
    await s.store.setPlan(account.id, "pro");
    // The same instant: Pro's budget, not what is left of Free's.
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await post(key, `Add search on Pro ${i}`)).statusCode);
    expect(codes).toEqual(Array(20).fill(200));
  });

  it("an Idempotency-Key replay is answered from the stored report, even with the per-minute budget spent", async () => {
    const { key } = await keyOn("payg");
    const first = await post(key, "Add audit log", { "idempotency-key": "audit-1" });
    expect(first.statusCode).toBe(200);
    for (let i = 1; i < PLANS.payg.rateLimit.burst; i++)
      expect((await post(key, `Add audit ${i}`)).statusCode).toBe(200);
    expect((await post(key, "Add audit, over")).json().error.code).toBe("rate_limited");
    const replay = await post(key, "Add audit log", { "idempotency-key": "audit-1" });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.headers["x-report-id"]).toBe(first.headers["x-report-id"]);
    expect(replay.json()).toEqual(first.json());
    // A new request with a new key is still held to the rate.
    expect((await post(key, "Add audit, new", { "idempotency-key": "audit-2" })).json().error.code).toBe(
      "rate_limited",
    );
  });

  it("a Pro key has its own, larger budget: another account's limit does not touch it", async () => {
    const { key } = await keyOn("pro");
    const codes = [];
    for (let i = 0; i < 12; i++) codes.push((await post(key, `Add import ${i}`)).statusCode);
    expect(codes.every((c) => c === 200)).toBe(true);
  });
});
