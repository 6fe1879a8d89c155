import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { MemoryRateLimiter } from "../../src/accounts/plan-rate-limit.js";
import { PLANS } from "../../src/core/plans.js";
import { bearer, keyedServer, type KeyedServer } from "../helpers/keyed-server.js";

describe("requests per minute by plan, on the API", () => {
  let s: KeyedServer;
  let now = Date.parse("2026-11-20T12:00:00Z");
  beforeAll(async () => {
    s = await keyedServer({ limiter: new MemoryRateLimiter(() => now) });
  });
  afterAll(async () => s.close());

  const post = (key: string, task: string) =>
    s.app.inject({ method: "POST", url: "/score-task", headers: bearer(key), payload: { task } });
  const keyOn = async (plan: "free" | "pro") => {
    const account = await s.store.createAccount(`rate-${plan}`, plan);
    return (await s.store.createKey(account.id, ["score"])).key;
  };

  it("a Free key's burst passes, the next request is 429 rate_limited with Retry-After and the policy", async () => {
    const key = await keyOn("free");
    const { burst, perMinute } = PLANS.free.rateLimit;
    for (let i = 0; i < burst; i++) expect((await post(key, `Add export ${i}`)).statusCode).toBe(200);
    const refused = await post(key, "Add export, once more");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(refused.json().error.message).toMatch(/allows 10 requests a minute/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.headers["ratelimit-policy"]).toBe(`${perMinute};w=60;burst=${burst}`);
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    // A minute later the rate allows it, and it is the month's allowance that refuses: a different answer.
    now += 60_000;
    const later = await post(key, "Add export, a minute later");
    expect(later.statusCode).toBe(429);
    expect(later.json().error.code).toBe("quota_exceeded");
  });

  it("a Pro key has its own, larger budget: another account's limit does not touch it", async () => {
    const key = await keyOn("pro");
    const codes = [];
    for (let i = 0; i < 12; i++) codes.push((await post(key, `Add import ${i}`)).statusCode);
    expect(codes.every((c) => c === 200)).toBe(true);
  });
});
