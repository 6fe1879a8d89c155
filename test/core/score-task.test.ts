import { describe, expect, it } from "@jest/globals";
import { ScorerFailedError } from "../../src/core/errors.js";
import { PERSONAS } from "../../src/core/personas.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import { readingOf, scoreTask } from "../../src/core/score-task.js";
import { readReading } from "../../src/core/offline/read-reading.js";
import type { PersonaVerdict, Scorer } from "../../src/core/scorer.js";

const fixedClock = () => new Date("2026-11-22T10:00:00.123Z");

function fakeScorer(verdicts: PersonaVerdict[]): Scorer {
  return { name: "fake", score: async () => verdicts };
}

const five = (scores: number[]): PersonaVerdict[] =>
  PERSONAS.map((p, i) => ({ persona: p.id, score: scores[i]!, reasoning: `${p.expert} says ${scores[i]}` }));

describe("scoreTask", () => {
  it("assembles a report in the specified order with names, icons and the injected clock", async () => {
    // Scorers may answer in any order (parallel model calls); the report is always in spec order.
    const shuffled = five([9, 3, 7, 8, 6]).reverse();
    const { report, approval } = await scoreTask(
      { task: "  Add Stripe checkout ", description: "" },
      { scorer: fakeScorer(shuffled), clock: fixedClock },
    );
    expect(ScoreReportSchema.parse(report)).toEqual(report);
    expect(report.task).toBe("  Add Stripe checkout ");
    expect(report.expertScores.map((e) => [e.expert, e.icon, e.score])).toEqual([
      ["Revenue Expert", "💼", 9],
      ["Technical Architect", "\u{1F3D7}\u{FE0F}", 3],
      ["UX Designer", "🎨", 7],
      ["Product Manager", "📊", 8],
      ["Marketing Strategist", "📢", 6],
    ]);
    expect(report.expertScores[1]!.reasoning).toBe("Technical Architect says 3");
    expect(report.consensus).toEqual({
      avgScore: 6.6,
      minScore: 3,
      maxScore: 9,
      approved: false,
      timestamp: "2026-11-22T10:00:00.123Z",
    });
    expect(approval.conditions.filter((c) => !c.passed).map((c) => c.id)).toEqual(["average", "minimum"]);
  });

  it("never makes a partial report: a missing persona is a scorer failure", async () => {
    const four = five([5, 5, 5, 5, 5]).slice(0, 4);
    await expect(scoreTask({ task: "x", description: "" }, { scorer: fakeScorer(four) })).rejects.toThrow(
      ScorerFailedError,
    );
    await expect(scoreTask({ task: "x", description: "" }, { scorer: fakeScorer(four) })).rejects.toThrow(
      /Marketing Strategist/,
    );
  });

  it.each([[0], [11], [7.5], [Number.NaN]])("refuses a score of %p instead of clamping it", async (bad) => {
    const verdicts = five([5, 5, bad, 5, 5]);
    await expect(
      scoreTask({ task: "x", description: "" }, { scorer: fakeScorer(verdicts) }),
    ).rejects.toMatchObject({
      code: "scorer_failed",
    });
  });

  it("refuses duplicate verdicts for one persona", async () => {
    const verdicts = [...five([5, 5, 5, 5, 5]), { persona: "ux" as const, score: 9, reasoning: "again" }];
    await expect(scoreTask({ task: "x", description: "" }, { scorer: fakeScorer(verdicts) })).rejects.toThrow(
      /more than one/,
    );
  });
});

describe("the reading of a repeated task", () => {
  it("is the same reading, shared read-only (no report can change another's)", () => {
    const text = "Twelve enterprise customers asked for CSV export. Acceptance: one row per task.";
    const first = readingOf("Add CSV export", text);
    const second = readingOf("Add CSV export", text);
    expect(second).toEqual(readReading("Add CSV export", text));
    expect(second).toEqual(first);
    expect(() => {
      first.evidence[0]!.quote = "changed";
    }).toThrow(TypeError);
    expect(() => first.evidence.push({ type: "code", quote: "x" })).toThrow(TypeError);
    expect(() => {
      first.kind = "junk";
    }).toThrow(TypeError);
    expect(readingOf("Add CSV export", text)).toEqual(readReading("Add CSV export", text));
  });
});
