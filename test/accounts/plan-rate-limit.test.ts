import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import {
  DatabaseRateLimiter,
  MemoryRateLimiter,
  RedisRateLimiter,
  type RateLimiter,
} from "../../src/accounts/plan-rate-limit.js";
import { AccountStore } from "../../src/accounts/account-store.js";
import { PLANS } from "../../src/core/plans.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import { freshDatabase } from "../helpers/postgres.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

const rule = { perMinute: 60, burst: 3 }; // one a second, three at once

describe("requests per minute by plan", () => {
  it("every plan has a limit, more generous as the plan is", () => {
    expect(PLANS.free.rateLimit.perMinute).toBeLessThan(PLANS.payg.rateLimit.perMinute);
    expect(PLANS.payg.rateLimit.perMinute).toBeLessThan(PLANS.pro.rateLimit.perMinute);
    for (const p of Object.values(PLANS)) expect(p.rateLimit.burst).toBeGreaterThanOrEqual(1);
  });

  it("in memory: the burst passes, the next waits its interval, and each subject has its own budget", async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const first = await Promise.all([1, 2, 3].map(() => limiter.take("acct_a", rule)));
    expect(first.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(first.map((d) => d.remaining)).toEqual([2, 1, 0]);
    const refused = await limiter.take("acct_a", rule);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    expect((await limiter.take("acct_b", rule)).allowed).toBe(true);
    now += 1000;
    expect((await limiter.take("acct_a", rule)).allowed).toBe(true);
    expect((await limiter.take("acct_a", rule)).allowed).toBe(false);
    now += 10_000;
    expect((await limiter.take("acct_a", rule)).remaining).toBe(2);
  });
});

async function burstThenRefuse(limiter: RateLimiter, subject: string) {
  const decisions = await Promise.all(Array.from({ length: 6 }, () => limiter.take(subject, rule)));
  return decisions.filter((d) => d.allowed).length;
}

describe("requests per minute on the embedded database", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => db.close());

  it("allows the burst and refuses the rest, with a Retry-After", async () => {
    const limiter = new DatabaseRateLimiter(db.db);
    expect(await burstThenRefuse(limiter, "acct_db")).toBe(3);
    const refused = await limiter.take("acct_db", rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});

describeUnless(missingEnv(["DATABASE_URL"]), "requests per minute across a fleet on PostgreSQL", () => {
  const dbs: Database[] = [];
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
    for (let i = 0; i < 2; i++) dbs.push(await openDatabase({ url: fresh.url }));
  });
  afterAll(async () => {
    await Promise.all(dbs.map((d) => d.close()));
    await fresh.drop();
  });

  it("two instances share one budget: 12 parallel requests, 3 allowed", async () => {
    const subject = "acct_pg";
    const [a, b] = dbs.map((d) => new DatabaseRateLimiter(d.db));
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a! : b!).take(subject, rule)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
  });

  it("the rate and the allowance's hold in one statement: only requests the rate allows hold, never past the allowance", async () => {
    const account = await new AccountStore(dbs[0]!.db).createAccount("Hold Co", "free");
    const [a, b] = dbs.map((d) => new DatabaseRateLimiter(d.db));
    const hold = { period: "2026-11", allowance: 2 };
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a! : b!).takeAndHold(account.id, rule, hold)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    expect(decisions.filter((d) => d.held)).toHaveLength(2);
    expect(decisions.every((d) => d.allowed || !d.held)).toBe(true);
    const counter = await dbs[0]!.db
      .selectFrom("usage_counters")
      .select("used")
      .where("account_id", "=", account.id)
      .executeTakeFirstOrThrow();
    expect(counter.used).toBe(2);
  });
});

describeUnless(missingEnv(["REDIS_URL"]), "requests per minute across a fleet with Redis", () => {
  const clients: Redis[] = [];
  beforeAll(() => {
    for (let i = 0; i < 2; i++) clients.push(new Redis(process.env.REDIS_URL!));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it("two instances share one budget: 12 parallel requests, 3 allowed", async () => {
    const prefix = `test-${Date.now()}`;
    const [a, b] = clients.map((c) => new RedisRateLimiter(c, prefix));
    const decisions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a! : b!).take("acct_redis", rule)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
