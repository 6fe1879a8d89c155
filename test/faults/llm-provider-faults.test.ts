import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { FastifyInstance } from "fastify";
import { createScorer } from "../../src/llm/create-scorer.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { buildServer } from "../../src/http/build-server.js";
import { completion, verdictJson } from "../helpers/llm-test-kit.js";

/**
 * A model provider that hangs, fails with 500s, or answers garbage for a while: the service keeps
 * answering with the documented errors, and recovers by itself once the provider does.
 */
type Mode = "ok" | "hang" | "500" | "garbage";
let mode: Mode = "ok";
let provider: Server;
let app: FastifyInstance;
const KEY = "sk-test-not-a-real-key";

beforeAll(async () => {
  provider = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      if (mode === "hang") return; // never answers; the scorer's timeout must fire
      if (mode === "500") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "upstream exploded: internal detail" } }));
        return;
      }
      const expert = /You are the (.+?) on a jury/.exec(raw)?.[1] ?? "Expert";
      const content = mode === "garbage" ? "I think it is great!!! {{{" : verdictJson(expert, 8);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completion(content)));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const addr = provider.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  const { scorer } = createScorer({
    scorer: "openai",
    openaiApiKey: KEY,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    model: "test-model",
    timeoutSeconds: 0.3,
    maxRetries: 1,
    cacheSize: 0,
  });
  app = await buildServer({ scorer, policy: DEFAULT_APPROVAL_POLICY });
});

afterAll(async () => {
  await app.close();
  provider.closeAllConnections();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

async function score() {
  const res = await app.inject({
    method: "POST",
    url: "/score-task",
    payload: { task: "Add Stripe checkout" },
  });
  return { status: res.statusCode, body: res.body, json: res.json() };
}

describe("LLM provider faults", () => {
  it("answers with the documented error for each fault, repeatedly, and recovers without a restart", async () => {
    const expected: Record<Exclude<Mode, "ok">, [number, string]> = {
      hang: [504, "scorer_timeout"],
      "500": [503, "scorer_unavailable"],
      garbage: [502, "scorer_failed"],
    };
    for (const fault of ["hang", "500", "garbage"] as const) {
      mode = fault;
      for (let round = 0; round < 2; round++) {
        const res = await score();
        expect([res.status, res.json.error.code]).toEqual(expected[fault]);
        expect(res.json.error.message).toMatch(/Revenue Expert|persona/);
        // Nothing internal leaks: no key, no upstream body.
        expect(res.body).not.toContain(KEY);
        expect(res.body).not.toContain("internal detail");
        expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      }
      mode = "ok";
      const healed = await score();
      expect(healed.status).toBe(200);
      expect(healed.json.expertScores.map((e: { score: number }) => e.score)).toEqual([8, 8, 8, 8, 8]);
    }
  }, 30_000);

  it("the REST deadline comes from REQUEST_TIMEOUT_SECONDS: a hung provider with a long per-call timeout still gets a JSON 504", async () => {
    mode = "hang";
    const addr = provider.address();
    const port = typeof addr === "object" && addr ? addr.port : 0;
    const { scorer } = createScorer({
      scorer: "openai",
      openaiApiKey: KEY,
      openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
      model: "test-model",
      timeoutSeconds: 30,
      maxRetries: 2,
      cacheSize: 0,
    });
    const server = await buildServer({ scorer, policy: DEFAULT_APPROVAL_POLICY, requestTimeoutMs: 500 });
    try {
      const res = await server.inject({
        method: "POST",
        url: "/score-task",
        payload: { task: "Add dark mode" },
      });
      expect(res.statusCode).toBe(504);
      expect(res.json().error.code).toBe("scorer_timeout");
      expect(res.json().error.message).toMatch(/deadline of 0.5 s/);
    } finally {
      mode = "ok";
      await server.close();
    }
  });
});
