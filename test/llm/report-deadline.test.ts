import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { ScorerTimeoutError, ScorerUnavailableError } from "../../src/core/errors.js";
import { OpenAiScorer } from "../../src/llm/openai-scorer.js";
import { FAKE_KEY, completion, verdictJson } from "../helpers/llm-test-kit.js";

/**
 * One deadline per report: every model call, retry and backoff of one report share it, whatever
 * the per-call timeout and the retry budget. And identical concurrent reports share one scoring.
 * A stand-in provider on loopback: it hangs, fails, or answers after a pause, as told.
 */
type Mode = "hang" | "500" | "slow-ok";
let mode: Mode = "hang";
let calls = 0;
let release: (() => void)[] = [];
let provider: Server;
let origin = "";
/** Which test's requests the provider counts (bumped before each test). */
let test = 0;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      // A request of an earlier test that reaches the server late (a loaded machine: the report gave up on it
      // already) is not this test's: each test's scorer calls under its own path.
      if (!req.url?.startsWith(`/t${test}/`)) return;
      calls++;
      if (mode === "hang") return;
      if (mode === "500") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "down" } }));
        return;
      }
      const expert = /You are the (.+?) on a jury/.exec(raw)?.[1] ?? "Expert";
      release.push(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(completion(verdictJson(expert, 6))));
      });
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const addr = provider.address();
  origin = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});

afterAll(async () => {
  provider.closeAllConnections();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

beforeEach(() => {
  calls = 0;
  release = [];
  test++;
});

function scorer(extra: Partial<ConstructorParameters<typeof OpenAiScorer>[0]> = {}) {
  const sleeps: number[] = [];
  const s = new OpenAiScorer({
    apiKey: FAKE_KEY,
    baseURL: `${origin}/t${test}/v1`,
    model: "test-model",
    cacheSize: 0,
    sleep: async (ms) => void sleeps.push(ms),
    ...extra,
  });
  return { scorer: s, sleeps };
}

async function whenCalls(n: number) {
  while (calls < n) await new Promise((r) => setTimeout(r, 5));
}

describe("one deadline per report", () => {
  it("a hung provider: the report's deadline cuts every call, whatever the per-call timeout and retries", async () => {
    mode = "hang";
    // Per call 30 s and two retries would be 90 s and more; the report gets 300 ms.
    const { scorer: s } = scorer({ timeoutMs: 30_000, maxRetries: 2 });
    const error = await s
      .score({ task: "Add dark mode", description: "" }, { timeoutMs: 300 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ScorerTimeoutError);
    expect(error.message).toMatch(
      /did not answer within the report's deadline of 0.3 s for all five personas/,
    );
    // No retry started after the deadline: at most the five first calls ever reach the provider (on a loaded
    // machine some are cut before they are sent, so the count settles below five, never above).
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toBeLessThanOrEqual(5);
  });

  it("a backoff that would end past the deadline is not waited for", async () => {
    mode = "500";
    const { scorer: s, sleeps } = scorer({
      maxRetries: 2,
      retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    const error = await s
      .score({ task: "Add dark mode", description: "" }, { timeoutMs: 5_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ScorerUnavailableError);
    expect(sleeps).toEqual([]);
    expect(calls).toBe(5);
  });

  it("without a deadline from the caller, the scorer's default applies (the same 30 s as REST)", async () => {
    mode = "hang";
    const { scorer: s } = scorer({ reportTimeoutMs: 200 });
    await expect(s.score({ task: "Add dark mode", description: "" })).rejects.toBeInstanceOf(
      ScorerTimeoutError,
    );
  });
});

describe("single-flight", () => {
  it("two identical requests at the same moment make five model calls, not ten, and both get the report", async () => {
    mode = "slow-ok";
    const { scorer: s } = scorer();
    const task = { task: "Add Stripe checkout", description: "Let users pay." };
    const both = Promise.all([s.score(task), s.score(task)]);
    await whenCalls(5);
    await new Promise((r) => setTimeout(r, 50));
    for (const answer of release) answer();
    const [a, b] = await both;
    expect(calls).toBe(5);
    expect(a.map((v) => v.score)).toEqual([6, 6, 6, 6, 6]);
    expect(b).toEqual(a);
  });

  it("different tasks are scored separately", async () => {
    mode = "slow-ok";
    const { scorer: s } = scorer();
    const both = Promise.all([
      s.score({ task: "A", description: "" }),
      s.score({ task: "B", description: "" }),
    ]);
    await whenCalls(10);
    for (const answer of release) answer();
    await both;
    expect(calls).toBe(10);
  });

  it("one caller giving up does not cancel the scoring another caller still waits for", async () => {
    mode = "slow-ok";
    const { scorer: s } = scorer();
    const task = { task: "Add an audit log", description: "" };
    const leaving = new AbortController();
    const first = s.score(task, { signal: leaving.signal }).catch((e) => e);
    const second = s.score(task, { signal: new AbortController().signal });
    await whenCalls(5);
    leaving.abort();
    for (const answer of release) answer();
    expect((await second).map((v) => v.score)).toEqual([6, 6, 6, 6, 6]);
    await first;
    expect(calls).toBe(5);
  });
});
