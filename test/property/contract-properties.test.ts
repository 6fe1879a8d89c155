import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { FastifyInstance } from "fastify";
import { DEFAULT_APPROVAL_POLICY, computeStats, evaluateApproval } from "../../src/core/approval.js";
import { offlineScorer, scoreOffline } from "../../src/core/offline/offline-scorer.js";
import { PERSONAS } from "../../src/core/personas.js";
import { buildReport } from "../../src/core/score-task.js";
import { buildServer } from "../../src/http/build-server.js";

const DOCUMENTED_4XX = new Set([400, 404, 405, 413, 415]);

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY });
});
afterAll(async () => {
  await app.close();
});

describe("POST /score-task for any JSON body", () => {
  it("answers 200 with a valid report or a documented 4xx with the error shape, never 5xx", async () => {
    const body = fc.oneof(
      fc.json(),
      fc
        .record({ task: fc.anything(), description: fc.anything() }, { requiredKeys: [] })
        .map((o) => JSON.stringify(o)),
      fc
        .record({
          task: fc.string({ maxLength: 300 }),
          description: fc.option(fc.string({ maxLength: 500 })),
        })
        .map((o) => JSON.stringify(o)),
      fc.string({ maxLength: 200 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await app.inject({
          method: "POST",
          url: "/score-task",
          headers: { "content-type": "application/json" },
          payload,
        });
        if (res.statusCode === 200) {
          const report = res.json();
          expect(report.expertScores).toHaveLength(5);
          expect(report.task).toBe(JSON.parse(payload).task);
        } else {
          expect(DOCUMENTED_4XX.has(res.statusCode)).toBe(true);
          const err = res.json().error;
          expect(typeof err.code).toBe("string");
          expect(typeof err.message).toBe("string");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("consensus and approval for any five scores", () => {
  const score = fc.integer({ min: 1, max: 10 });
  it("follow the contract", () => {
    fc.assert(
      fc.property(fc.array(score, { minLength: 5, maxLength: 5 }), (scores) => {
        const verdicts = PERSONAS.map((p, i) => ({ persona: p.id, score: scores[i]!, reasoning: "r" }));
        const { report, approval } = buildReport({ task: "t", description: "" }, verdicts, new Date(0));
        const sum = scores.reduce((a, b) => a + b, 0);
        expect(report.consensus.avgScore).toBe(sum / 5);
        expect(report.consensus.minScore).toBe(Math.min(...scores));
        expect(report.consensus.maxScore).toBe(Math.max(...scores));
        const expected = sum / 5 >= 7 && Math.min(...scores) >= 4 && scores.filter((s) => s >= 7).length >= 3;
        expect(report.consensus.approved).toBe(expected);
        expect(approval.approved).toBe(expected);
        expect(evaluateApproval(scores).approved).toBe(expected);
        expect(computeStats(scores).avgScore).toBe(sum / 5);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the offline scorer for any string up to the limits", () => {
  const awkward = fc.oneof(
    fc.string({ maxLength: 2000 }),
    fc.string({ unit: "binary", maxLength: 2000 }), // any code unit, lone surrogates included
    fc.string({ unit: "grapheme", maxLength: 500 }),
    fc.constantFrom(
      "\u202e\u200f\u0645\u0631\u062d\u0628\u0627",
      "\u0000\u0001\u001f\u007f",
      "\ud800\udc00\ud800",
      "מה שלום",
    ),
    fc
      .tuple(fc.constantFrom("a", "🎉", "\n", " ", "支", "#"), fc.integer({ min: 1, max: 65_536 }))
      .map(([c, n]) => c.repeat(Math.ceil(n / c.length)).slice(0, 65_536)),
  );
  it("is deterministic and always gives five integers from 1 to 10", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 256 }), awkward, (task, description) => {
        const a = scoreOffline({ task, description });
        const b = scoreOffline({ task, description });
        expect(b).toEqual(a);
        expect(a.map((v) => v.persona)).toEqual(PERSONAS.map((p) => p.id));
        for (const v of a) {
          expect(Number.isInteger(v.score) && v.score >= 1 && v.score <= 10).toBe(true);
          expect(v.reasoning.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
