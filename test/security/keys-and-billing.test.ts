import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { runAdmin } from "../../src/admin/admin-commands.js";
import { AppMetering } from "../../src/accounts/app-metering.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { openDatabase } from "../../src/storage/database.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";
import { ScorerUnavailableError } from "../../src/core/errors.js";
import type { Scorer } from "../../src/core/scorer.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { bearer, keyedServer, type KeyedServer } from "../helpers/keyed-server.js";

/** A stranger with a Free key, a customer changing plans, and a browser client: what each can make happen. */
const NOW = new Date("2026-11-20T12:00:00Z");
let modelCalls = 0;
let failNext = 0;
let delayMs = 0;
/** A stand-in for a model: counts its calls, can be slow, can fail. */
const model: Scorer = {
  name: "openai",
  async score(input, options) {
    modelCalls++;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (failNext > 0) {
      failNext--;
      throw new ScorerUnavailableError("The model provider is unreachable.");
    }
    return offlineScorer.score(input, options);
  },
};

let s: KeyedServer;
beforeAll(async () => {
  s = await keyedServer({
    scorer: model,
    clock: () => NOW,
    maxConcurrentPerKey: 100,
    corsOrigins: ["https://app.example.com"],
  });
});
afterAll(async () => s.close());

async function newKey(plan: "free" | "payg" | "pro" = "free") {
  const account = await s.store.createAccount(`acct-${plan}-${Math.random()}`, plan);
  const { key } = await s.store.createKey(account.id, ["score", "usage:read", "reports:read"]);
  return { account, key };
}
const score = (key: string, task: string) =>
  s.app.inject({ method: "POST", url: "/score-task", headers: bearer(key), payload: { task } });

describe("a Free key cannot buy model calls it does not pay for", () => {
  it("30 parallel requests from a new Free key: 10 reports, 20 × 429, and the model called for 10 reports only", async () => {
    const { key } = await newKey();
    modelCalls = 0;
    delayMs = 30;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => score(key, `Add CSV export ${i}`)),
    );
    delayMs = 0;
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    expect(
      results.filter((r) => r.statusCode === 429).every((r) => r.json().error.code === "quota_exceeded"),
    ).toBe(true);
    expect(modelCalls).toBe(10);
  });

  it("a failed scoring gives its hold back: the allowance is still whole", async () => {
    const { key } = await newKey();
    failNext = 1;
    expect((await score(key, "Add dark mode")).statusCode).toBe(503);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await score(key, `Add dark mode ${i}`)).statusCode);
    expect(codes).toEqual([...Array(10).fill(200), 429]);
  });

  it("one key has at most 4 requests in scoring at once (the rest wait their turn); another key is not held up", async () => {
    let inModel = 0;
    let most = 0;
    let doneA = 0;
    let doneBefore = -1;
    const slow: Scorer = {
      name: "openai",
      async score(input, options) {
        inModel++;
        most = Math.max(most, inModel);
        await new Promise((r) => setTimeout(r, 50));
        inModel--;
        return offlineScorer.score(input, options);
      },
    };
    const limited = await keyedServer({ scorer: slow, clock: () => NOW, maxConcurrentPerKey: 4 });
    try {
      const a = await limited.store.createAccount("busy", "pro");
      const b = await limited.store.createAccount("other", "pro");
      const keyA = (await limited.store.createKey(a.id, ["score"])).key;
      const keyB = (await limited.store.createKey(b.id, ["score"])).key;
      const post = (key: string, i: number) =>
        limited.app.inject({
          method: "POST",
          url: "/score-task",
          headers: bearer(key),
          payload: { task: `T ${i}` },
        });
      const [burst, other] = await Promise.all([
        Promise.all(Array.from({ length: 12 }, (_, i) => post(keyA, i).finally(() => doneA++))),
        (async () => {
          await new Promise((r) => setTimeout(r, 10));
          const r = await post(keyB, 99);
          doneBefore = doneA;
          return r;
        })(),
      ]);
      expect(burst.every((r) => r.statusCode === 200)).toBe(true);
      expect(most).toBeLessThanOrEqual(5); // 4 of key A, and key B's one
      expect(other.statusCode).toBe(200);
      expect(doneBefore).toBeLessThan(12); // B did not wait for A's whole burst
      // Beyond the waiting line (16 per slot), the key is refused at once.
      const flood = await Promise.all(Array.from({ length: 80 }, (_, i) => post(keyA, 100 + i)));
      const refused = flood.filter((r) => r.statusCode === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.json().error.code).toBe("rate_limited");
      expect(refused[0]!.headers["retry-after"]).toBe("1");
    } finally {
      await limited.close();
    }
  }, 30_000);
});

describe("the amount due", () => {
  it("bills each task at the plan it was done under: 10 Free tasks, then Pay-as-you-go and 1 task, is $1", async () => {
    const { account, key } = await newKey("free");
    for (let i = 0; i < 10; i++) expect((await score(key, `Free task ${i}`)).statusCode).toBe(200);
    await s.store.setPlan(account.id, "payg");
    expect((await score(key, "Paid task")).statusCode).toBe(200);
    const usage = (await s.app.inject({ url: "/usage", headers: bearer(key) })).json();
    expect(usage).toMatchObject({ plan: "Pay-as-you-go", tasksUsed: 11, amountDueUsd: 1 });
  });
});

describe("one amount due, whoever asks (the admin CLI or GET /usage)", () => {
  it("Free with 10 tasks, and Pro with 2, both moved to Pay-as-you-go by `accounts plan`: `usage` and GET /usage print the same object, $0 and $50", async () => {
    // The real clock and a data folder: the admin CLI opens it as the operator's command does.
    const env = { DATA_DIR: join(mkdtempSync(join(tmpdir(), "ts-amount-")), "data") };
    const admin = async (...argv: string[]) => {
      const lines: string[] = [];
      await runAdmin(argv, env, (l) => lines.push(l));
      return lines.join("\n");
    };
    const served = async () => keyedServer({ database: await openDatabase({ dataDir: env.DATA_DIR }) });
    let k = await served();
    const free = await k.store.createAccount("was-free", "free");
    const pro = await k.store.createAccount("was-pro", "pro");
    const keys = {
      free: (await k.store.createKey(free.id, ["score", "usage:read"])).key,
      pro: (await k.store.createKey(pro.id, ["score", "usage:read"])).key,
    };
    const post = (key: string, task: string) =>
      k.app.inject({ method: "POST", url: "/score-task", headers: bearer(key), payload: { task } });
    for (let i = 0; i < 10; i++) expect((await post(keys.free, `Free task ${i}`)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await post(keys.pro, `Pro task ${i}`)).statusCode).toBe(200);
    await k.close();
    await k.database.close();

    expect(await admin("accounts", "plan", free.id, "payg")).toMatch(/now on Pay-as-you-go/);
    expect(await admin("accounts", "plan", pro.id, "payg")).toMatch(/now on Pay-as-you-go/);
    const printed = {
      free: JSON.parse(await admin("usage", free.id)),
      pro: JSON.parse(await admin("usage", pro.id)),
    };

    k = await served();
    try {
      const usage = async (key: string) =>
        (await k.app.inject({ url: "/usage", headers: bearer(key) })).json();
      const answered = { free: await usage(keys.free), pro: await usage(keys.pro) };
      // Each task at the plan it was done under; Pro's fee for the month it held Pro.
      expect(printed.free).toMatchObject({ plan: "Pay-as-you-go", tasksUsed: 10, amountDueUsd: 0 });
      expect(printed.pro).toMatchObject({ plan: "Pay-as-you-go", tasksUsed: 2, amountDueUsd: 50 });
      expect(answered).toEqual(printed);
    } finally {
      await k.close();
      await k.database.close();
    }
  }, 180_000);
});

describe("the GitHub App on a Free account", () => {
  const app = appWithStandIn({ storage: "pglite" });

  it("6 issues opened at once with 1 task left: the model is asked once more, for 1 report; the other 5 get the note", async () => {
    const { github } = app;
    let calls = 0;
    const counting: Scorer = {
      name: "openai",
      async score(input, options) {
        calls++;
        await new Promise((r) => setTimeout(r, 50));
        return offlineScorer.score(input, options);
      },
    };
    const service = await app.start(
      { AUTH: "keys", APP_QUEUE_CONCURRENCY: "8" },
      { scorer: counting, description: "counting" },
    );
    const opened = (n: number) =>
      deliver(
        service,
        "issues",
        payload("issues", "opened", (p) => {
          p.issue.number = n;
          p.issue.title = `Add CSV export for report ${n}`;
        }),
        `app-free-${n}`,
      );
    try {
      // The repository's owner (Codertocat) uses 9 of the Free plan's 10 tasks this month, one at a time.
      for (let n = 1; n <= 9; n++) {
        expect((await opened(n)).statusCode).toBe(200);
        await service.queue!.drain();
      }
      expect(calls).toBe(9);
      // Then 6 issues at once, with 1 task left.
      const acks = await Promise.all([10, 11, 12, 13, 14, 15].map(opened));
      expect(acks.every((r) => r.statusCode === 200)).toBe(true);
      await service.queue!.drain();
      expect(calls).toBe(10);
      const latest = [10, 11, 12, 13, 14, 15].map(
        (n) => github.comments.filter((c) => c.issue === `Codertocat/Hello-World#${n}`).at(-1)!.body,
      );
      expect(latest.every((b) => b.startsWith(REPORT_MARKER))).toBe(true);
      expect(latest.filter((b) => b.includes("Task score: paused for this month"))).toHaveLength(5);
    } finally {
      await service.close(0);
    }
  }, 90_000);
});

describe("GitHub Marketplace events arriving out of order", () => {
  it("a late `purchased` (effective 1 Nov) does not undo a `cancelled` (effective 20 Nov)", async () => {
    const metering = new AppMetering(s.store, () => NOW);
    const event = (action: string, effective: string) => ({
      action,
      effective_date: effective,
      marketplace_purchase: {
        account: { login: "late-org" },
        plan: { name: "Pro", price_model: "FLAT_RATE" },
      },
    });
    expect(await metering.onMarketplacePurchase(event("cancelled", "2026-11-20T00:00:00Z"))).toEqual({
      login: "late-org",
      plan: "free",
    });
    expect(await metering.onMarketplacePurchase(event("purchased", "2026-11-01T00:00:00Z"))).toBeUndefined();
    expect((await s.store.accountForGithub("late-org")).plan).toBe("free");
    // A newer event still applies.
    await metering.onMarketplacePurchase(event("purchased", "2026-11-22T00:00:00Z"));
    expect((await s.store.accountForGithub("late-org")).plan).toBe("pro");
  });
});

describe("a private report's existence", () => {
  it("a bad or missing key gets the same 404 for an existing private report as for none at all", async () => {
    const { key } = await newKey("pro");
    const made = await score(key, "Private task");
    const id = made.headers["x-report-id"] as string;
    expect((await s.app.inject({ url: `/reports/${id}`, headers: bearer(key) })).statusCode).toBe(200);
    const bogus = (await import("../../src/accounts/api-keys.js")).generateKey();
    for (const headers of [{}, bearer(bogus), { authorization: "Basic abc" }]) {
      const existing = await s.app.inject({ url: `/reports/${id}`, headers });
      const missing = await s.app.inject({ url: "/reports/rpt_doesnotexist", headers });
      expect(existing.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(existing.json().error.code).toBe(missing.json().error.code);
    }
  });
});

describe("CORS with keys (CORS_ORIGINS)", () => {
  it("the preflight allows the key and idempotency headers, and responses expose the keyed API's headers", async () => {
    const preflight = await s.app.inject({
      method: "OPTIONS",
      url: "/score-task",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers["access-control-allow-headers"]).split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "idempotency-key"]));
    const { key } = await newKey();
    const res = await s.app.inject({
      method: "POST",
      url: "/score-task",
      headers: { ...bearer(key), origin: "https://app.example.com", "idempotency-key": "cors-1" },
      payload: { task: "Add CSV export" },
    });
    expect(res.statusCode).toBe(200);
    const exposed = String(res.headers["access-control-expose-headers"]).split(/,\s*/);
    for (const h of [
      "x-report-id",
      "location",
      "ratelimit-limit",
      "ratelimit-remaining",
      "ratelimit-reset",
      "idempotent-replayed",
      "retry-after",
    ])
      expect(exposed).toContain(h);
    for (const h of ["x-report-id", "location", "ratelimit-remaining"]) expect(res.headers[h]).toBeDefined();
  });
});
