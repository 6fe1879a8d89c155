import { describe, expect, it } from "@jest/globals";
import { scoreTask } from "../../src/core/score-task.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { needsHuman, needsHumanReasons, renderNeedsHuman } from "../../src/core/needs-human.js";
import type { ScoreReport } from "../../src/core/score-report.schema.js";

/** A real report, then the two readings the rule looks at set by hand. */
async function report(scores: number[], kindConfidence: number): Promise<ScoreReport> {
  const { report: r } = await scoreTask(
    { task: "Add CSV export of reports", description: "Acceptance: one row per task." },
    { scorer: offlineScorer, clock: () => new Date("2026-11-25T00:00:00Z") },
  );
  return {
    ...r,
    expertScores: r.expertScores.map((e, i) => ({ ...e, score: scores[i]! })),
    consensus: { ...r.consensus, minScore: Math.min(...scores), maxScore: Math.max(...scores) },
    reading: { ...r.reading, kind: "feature", kindConfidence },
  };
}

describe("needs a human", () => {
  it("personas 4 or more points apart: says which two, with their scores", async () => {
    const r = await report([8, 4, 6, 6, 7], 0.9);
    expect(needsHuman(r)).toBe(true);
    expect(renderNeedsHuman(r)).toBe(
      "**Needs a human:** the personas are 4 points apart (Revenue Expert 8, Technical Architect 4).",
    );
  });

  it("3 points apart, with a confident reading, is left to the machine", async () => {
    const r = await report([8, 5, 6, 6, 7], 0.9);
    expect(needsHuman(r)).toBe(false);
    expect(renderNeedsHuman(r)).toBeUndefined();
  });

  it("a kind read at under even odds needs a person; both reasons are given in one line", async () => {
    expect(needsHumanReasons(await report([6, 6, 6, 6, 6], 0.45))).toEqual([
      "the reader is only 45% sure this is an enhancement request",
    ]);
    expect(renderNeedsHuman(await report([9, 5, 6, 6, 6], 0.3))).toBe(
      "**Needs a human:** the personas are 4 points apart (Revenue Expert 9, Technical Architect 5); and the reader is only 30% sure this is an enhancement request.",
    );
    expect(needsHuman(await report([6, 6, 6, 6, 6], 0.5))).toBe(false);
  });
});
