import nock from "nock";
import { describe, expect, it } from "@jest/globals";
import { createScorer } from "../../src/llm/create-scorer.js";
import { scorerSettingsFromEnv } from "../../src/config/llm-env.schema.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import { buildServer } from "../../src/http/build-server.js";
import {
  EXPERTS,
  FAKE_KEY,
  completion,
  expertOf,
  interceptChat,
  offlineNetwork,
  verdictJson,
} from "../helpers/llm-test-kit.js";

offlineNetwork();

/** The server as main.ts wires it, from environment variables, with the model behind nock. */
async function serverWith(env: Record<string, string> = {}) {
  const logs: string[] = [];
  const logger = {
    info: (o: object, m?: string) => void logs.push(JSON.stringify([o, m])),
    warn: (o: object, m?: string) => void logs.push(JSON.stringify([o, m])),
    error: (o: object, m?: string) => void logs.push(JSON.stringify([o, m])),
    debug: (o: object, m?: string) => void logs.push(JSON.stringify([o, m])),
  };
  const { scorer } = createScorer(
    scorerSettingsFromEnv({
      OPENAI_API_KEY: FAKE_KEY,
      OPENAI_BASE_URL: "http://llm.test/v1",
      OPENAI_MODEL: "gpt-test",
      // Short, so the timeout case is quick; long enough that a loaded CI machine answers the others in time.
      OPENAI_TIMEOUT_SECONDS: "1",
      OPENAI_MAX_RETRIES: "0",
      ...env,
    }),
    { logger, sleep: async () => {} },
  );
  const app = await buildServer({ scorer, policy: DEFAULT_APPROVAL_POLICY });
  const post = (body: object) =>
    app.inject({
      method: "POST",
      url: "/score-task",
      headers: { "content-type": "application/json" },
      payload: body,
    });
  return { app, post, logs };
}

const TASK = { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" };

describe("POST /score-task with the LLM scorer", () => {
  it("200: all five personas' reasoning is written by the model", async () => {
    interceptChat((body) => [200, completion(verdictJson(expertOf(body), 8))]);
    const { app, post, logs } = await serverWith();
    const res = await post(TASK);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-scorer"]).toBe("openai");
    const report = ScoreReportSchema.parse(res.json());
    expect(report.expertScores.map((e) => e.expert)).toEqual([...EXPERTS]);
    for (const e of report.expertScores) {
      expect(e.score).toBe(8);
      expect(e.reasoning).toBe(`As the ${e.expert} I see a clear reason for this score.`);
    }
    expect(report.consensus).toMatchObject({ avgScore: 8, minScore: 8, maxScore: 8, approved: true });
    expect(logs.join("\n")).not.toContain(FAKE_KEY);
    await app.close();
  });

  it("502 scorer_failed: the model answered, but never with a usable score", async () => {
    interceptChat((body) =>
      expertOf(body) === "UX Designer"
        ? [200, completion(JSON.stringify({ score: 42, reasoning: "The answer to everything, clearly." }))]
        : [200, completion(verdictJson(expertOf(body)))],
    );
    const { app, post } = await serverWith();
    const res = await post(TASK);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: {
        code: "scorer_failed",
        message:
          "The model gpt-test did not return a valid score after one repair attempt (`score` must be at most 10) for the UX Designer; use a model that supports structured outputs. No report was made.",
        details: { personas: ["UX Designer"] },
      },
    });
    await app.close();
  });

  it("503 scorer_unavailable: the key is refused; neither the key nor the upstream body leaks", async () => {
    interceptChat(() => [
      401,
      {
        error: { message: `Incorrect API key provided: ${FAKE_KEY}. upstream-body`, code: "invalid_api_key" },
      },
    ]);
    const { app, post, logs } = await serverWith();
    const res = await post(TASK);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: "scorer_unavailable",
      message:
        "The model provider rejected the API key (401) for all five personas; check OPENAI_API_KEY. No report was made.",
      details: { personas: [...EXPERTS] },
    });
    expect(res.body).not.toContain(FAKE_KEY);
    expect(res.body).not.toContain("upstream-body");
    expect(logs.join("\n")).not.toContain(FAKE_KEY);
    await app.close();
  });

  it("504 scorer_timeout: the model did not answer in time", async () => {
    nock("http://llm.test").post("/v1/chat/completions").times(5).delay(400).reply(200, completion("{}"));
    const { app, post } = await serverWith({ OPENAI_TIMEOUT_SECONDS: "0.1" });
    const res = await post(TASK);
    expect(res.statusCode).toBe(504);
    expect(res.json().error.code).toBe("scorer_timeout");
    expect(res.json().error.message).toMatch(/did not answer within 0.1 s for all five personas/);
    await app.close();
  });

  it("SCORER_FALLBACK=offline: 200 with the failed personas scored offline", async () => {
    interceptChat((body) =>
      expertOf(body) === "Revenue Expert"
        ? [500, { error: { message: "down" } }]
        : [200, completion(verdictJson(expertOf(body)))],
    );
    const { app, post } = await serverWith({ SCORER_FALLBACK: "offline" });
    const res = await post(TASK);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.expertScores[0].reasoning).toMatch(/^\(Scored offline because the model failed: /);
    expect(report.expertScores[1].reasoning).toMatch(/^As the Technical Architect/);
    await app.close();
  });

  it("with OPENAI_API_KEY unset nothing changes: offline, and no request leaves", async () => {
    const { scorer } = createScorer(scorerSettingsFromEnv({ OPENAI_BASE_URL: "http://llm.test/v1" }));
    const app = await buildServer({ scorer, policy: DEFAULT_APPROVAL_POLICY });
    const res = await app.inject({
      method: "POST",
      url: "/score-task",
      headers: { "content-type": "application/json" },
      payload: TASK,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-scorer"]).toBe("offline");
    expect(nock.pendingMocks()).toEqual([]);
    await app.close();
  });
});
