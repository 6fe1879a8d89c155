import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ScorerUnavailableError } from "../../src/core/errors.js";
import type { Scorer } from "../../src/core/scorer.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { bearer, json, keyedServer, type KeyedServer } from "../helpers/keyed-server.js";

const NOW = new Date("2026-11-20T12:00:00Z");
let s: KeyedServer;
let flaky = false;
const scorer: Scorer = {
  name: "offline",
  async score(input, options) {
    if (flaky) throw new ScorerUnavailableError("The model provider is unreachable.");
    return offlineScorer.score(input, options);
  },
};

beforeAll(async () => {
  s = await keyedServer({ scorer, clock: () => NOW });
});
afterAll(async () => s.close());

const post = (headers: Record<string, string>, task = "Add CSV export", extra: Record<string, string> = {}) =>
  s.app.inject({ method: "POST", url: "/score-task", headers: { ...headers, ...extra }, payload: { task } });

async function accountWithKey(
  plan: "free" | "payg" | "pro" = "free",
  scopes?: ("score" | "usage:read" | "reports:read")[],
) {
  const account = await s.store.createAccount(`acct-${plan}`, plan);
  const { key, record } = await s.store.createKey(
    account.id,
    scopes ?? ["score", "usage:read", "reports:read"],
  );
  return { account, key, record };
}

describe("AUTH=keys: who may call", () => {
  it("a missing key is 401 with WWW-Authenticate and the JSON error body", async () => {
    const r = await post(json);
    expect(r.statusCode).toBe(401);
    expect(r.headers["www-authenticate"]).toMatch(/^Bearer realm="task-scorer"/);
    expect(r.json().error.code).toBe("unauthorized");
    expect(r.json().error.message).toMatch(/Authorization: Bearer/);
  });

  it("a malformed, unknown, expired or revoked key is 401 and says which", async () => {
    const { account, key, record } = await accountWithKey();
    const expired = await s.store.createKey(account.id, ["score"], new Date("2026-11-01T00:00:00Z"));
    await s.store.revokeKey(record.id, new Date("2026-11-10T00:00:00Z"));
    const unknown = (await import("../../src/accounts/api-keys.js")).generateKey();
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...json, authorization: "Basic abc" }, /Bearer/],
      [bearer("tsk_short"), /not a task-scorer API key/],
      [bearer(unknown), /not known/],
      [bearer(expired.key), /expired on 2026-11-01/],
      [bearer(key), /revoked on 2026-11-10/],
    ];
    for (const [headers, message] of cases) {
      const r = await post(headers);
      expect(r.statusCode).toBe(401);
      expect(r.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(r.json().error.message).toMatch(message);
    }
  });

  it("a key without the scope is 403", async () => {
    const { key } = await accountWithKey("free", ["usage:read"]);
    const r = await post(bearer(key));
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe("forbidden");
    expect(r.headers["www-authenticate"]).toMatch(/insufficient_scope/);
  });

  it("the OpenAPI document says a bearer key is needed", async () => {
    const doc = (await s.app.inject({ url: "/openapi.json" })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it("the key is checked before the body: no key and a bad body is still 401", async () => {
    const r = await s.app.inject({ method: "POST", url: "/score-task", headers: json, payload: "{not json" });
    expect(r.statusCode).toBe(401);
  });
});

describe("the Free plan's allowance", () => {
  it("gives 10 reports a month, then 429 quota_exceeded with Retry-After until the next month", async () => {
    const { key } = await accountWithKey();
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await post(bearer(key), `Add CSV export ${i}`)).statusCode);
    expect(codes).toEqual([...Array(10).fill(200), 429, 429]);
    const r = await post(bearer(key));
    expect(r.json().error.code).toBe("quota_exceeded");
    expect(r.json().error.message).toMatch(/renews on 2026-12-01/);
    // 2026-11-20T12:00Z to 2026-12-01T00:00Z
    expect(r.headers["retry-after"]).toBe(String(10.5 * 86_400));
    expect(r.headers["ratelimit-remaining"]).toBe("0");
    expect(r.headers["ratelimit-limit"]).toBe("10");
  });

  it("an account moved to Free mid-month keeps what it already used", async () => {
    const { account, key } = await accountWithKey("payg");
    for (let i = 0; i < 11; i++)
      expect((await post(bearer(key), `Add CSV export ${i}`)).statusCode).toBe(200);
    await s.store.setPlan(account.id, "free");
    const r = await post(bearer(key), "One more");
    expect(r.statusCode).toBe(429);
    expect((await s.app.inject({ url: "/usage", headers: bearer(key) })).json()).toMatchObject({
      tasksUsed: 11,
      remaining: 0,
    });
  });

  it("a failed report counts nothing", async () => {
    const { key } = await accountWithKey();
    flaky = true;
    const failed = await post(bearer(key));
    flaky = false;
    expect(failed.statusCode).toBe(503);
    const usage = await s.app.inject({ url: "/usage", headers: bearer(key) });
    expect(usage.json().tasksUsed).toBe(0);
  });

  it("a successful report says how much is left", async () => {
    const { key } = await accountWithKey();
    const r = await post(bearer(key));
    expect(r.statusCode).toBe(200);
    expect(r.headers["ratelimit-remaining"]).toBe("9");
    expect(r.headers.location).toMatch(/^\/reports\/rpt_/);
    // The answer is the report as stored (one JSON text for both), typed as JSON.
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    const stored = await s.app.inject({ url: r.headers.location as string, headers: bearer(key) });
    expect(stored.json().report).toEqual(r.json());
    expect(r.json().expertScores).toHaveLength(5);
  });
});

describe("Idempotency-Key", () => {
  it("a retried request returns the first report and is counted once", async () => {
    const { key } = await accountWithKey();
    const headers = { "idempotency-key": "retry-1" };
    const first = await post(bearer(key), "Add CSV export", headers);
    const second = await post(bearer(key), "Add CSV export", headers);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json()); // same timestamp: the same report, not a new one
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.headers["x-report-id"]).toBe(first.headers["x-report-id"]);
    expect((await s.app.inject({ url: "/usage", headers: bearer(key) })).json().tasksUsed).toBe(1);
  });

  it("a malformed Idempotency-Key is a 400 that says what it must look like", async () => {
    const { key } = await accountWithKey();
    const r = await post(bearer(key), "Add CSV export", { "idempotency-key": "x".repeat(300) });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/1 to 255 visible ASCII characters/);
  });

  it("text PostgreSQL's jsonb would refuse (NUL, a lone surrogate) is stored and counted", async () => {
    const { key } = await accountWithKey();
    for (const task of ["nul\\u0000here", "lone\\ud800"]) {
      const r = await s.app.inject({
        method: "POST",
        url: "/score-task",
        headers: bearer(key),
        payload: `{"task":"${task}"}`,
      });
      expect(r.statusCode).toBe(200);
      expect((await s.app.inject({ url: r.headers.location as string })).statusCode).toBe(200);
    }
    expect((await s.app.inject({ url: "/reports/%00" })).statusCode).toBe(400);
  });

  it("the same key with another body is 422", async () => {
    const { key } = await accountWithKey();
    await post(bearer(key), "Add CSV export", { "idempotency-key": "k-2" });
    const r = await post(bearer(key), "Something else", { "idempotency-key": "k-2" });
    expect(r.statusCode).toBe(422);
    expect(r.json().error.code).toBe("idempotency_key_reused");
  });

  it("concurrent duplicates are charged once", async () => {
    const { key } = await accountWithKey("payg");
    const rs = await Promise.all(
      Array.from({ length: 8 }, () => post(bearer(key), "Add CSV export", { "idempotency-key": "same" })),
    );
    expect(rs.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(rs.map((r) => r.headers["x-report-id"])).size).toBe(1);
    expect((await s.app.inject({ url: "/usage", headers: bearer(key) })).json().tasksUsed).toBe(1);
  });
});

describe("usage and reports", () => {
  it("usage shows the period, the allowance and the amount due under each plan", async () => {
    for (const [plan, due, allowance] of [
      ["free", 0, 10],
      ["payg", 2, null],
      ["pro", 50, null],
    ] as const) {
      const { key } = await accountWithKey(plan);
      await post(bearer(key), "Add CSV export a");
      await post(bearer(key), "Add CSV export b");
      const u = (await s.app.inject({ url: "/usage", headers: bearer(key) })).json();
      expect(u).toMatchObject({ period: "2026-11", tasksUsed: 2, allowance, amountDueUsd: due });
    }
  });

  it("a Free account's report is public; a paid account's is private to its own keys", async () => {
    const free = await accountWithKey("free");
    const paid = await accountWithKey("payg");
    const other = await accountWithKey("pro");
    const freeUrl = (await post(bearer(free.key))).headers.location as string;
    const paidUrl = (await post(bearer(paid.key))).headers.location as string;
    expect((await s.app.inject({ url: freeUrl })).statusCode).toBe(200);
    expect((await s.app.inject({ url: freeUrl })).json().report.expertScores).toHaveLength(5);
    expect((await s.app.inject({ url: paidUrl })).statusCode).toBe(404);
    expect((await s.app.inject({ url: paidUrl, headers: bearer(other.key) })).statusCode).toBe(404);
    const own = await s.app.inject({ url: paidUrl, headers: bearer(paid.key) });
    expect(own.statusCode).toBe(200);
    expect(own.json().visibility).toBe("private");
  });

  it("listing reports through the API is Pro's API access", async () => {
    const free = await accountWithKey("free");
    const pro = await accountWithKey("pro");
    await post(bearer(pro.key));
    expect((await s.app.inject({ url: "/reports", headers: bearer(free.key) })).statusCode).toBe(403);
    const list = await s.app.inject({ url: "/reports", headers: bearer(pro.key) });
    expect(list.statusCode).toBe(200);
    expect(list.json().reports).toHaveLength(1);
    expect(list.json().nextCursor).toBeNull();
  });

  it("pages through every report, newest first, none lost or repeated (the list stopped at 50)", async () => {
    const pro = await accountWithKey("pro");
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        ((await post(bearer(pro.key), `Add export ${i}`)).headers.location as string).split("/").pop()!,
      );
    const seen: string[] = [];
    const times: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof s.app.inject>> = await s.app.inject({
        url: `/reports?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        headers: bearer(pro.key),
      });
      expect(r.statusCode).toBe(200);
      seen.push(...r.json().reports.map((x: { id: string }) => x.id));
      times.push(...r.json().reports.map((x: { createdAt: string }) => x.createdAt));
      cursor = r.json().nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(made));
    // Newest first.
    expect([...times].sort().reverse()).toEqual(times);
    // The default page holds them all; a bad limit or a cursor of another account's list is a 400 that says why.
    expect((await s.app.inject({ url: "/reports", headers: bearer(pro.key) })).json().reports).toHaveLength(
      7,
    );
    for (const q of ["limit=0", "limit=201", "limit=x"]) {
      const bad = await s.app.inject({ url: `/reports?${q}`, headers: bearer(pro.key) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toMatch(/limit.*whole number from 1 to 200/);
    }
    const other = await accountWithKey("pro");
    const foreign = await s.app.inject({ url: `/reports?cursor=${made[0]}`, headers: bearer(other.key) });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toMatch(/cursor.*start again without it/);
  });
});
