import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { scoreTask } from "../../src/core/score-task.js";

/**
 * docs/api.md shows "a real answer of the offline scorer": it must be one. A newcomer who ran the README's request
 * got Revenue 8 and an average of 7.8 where the page said 7 and 7.6 (the scorer had moved, the page had not).
 */
describe("the answer docs/api.md shows", () => {
  const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
  const at = doc.indexOf("real answer of the offline scorer");
  const block = doc.slice(
    doc.indexOf("```json\n", at) + 8,
    doc.indexOf("\n```", doc.indexOf("```json\n", at) + 8),
  );
  const parsed = JSON.parse(block) as {
    task: string;
    description: string;
    consensus: {
      avgScore: number;
      minScore: number;
      maxScore: number;
      approved: boolean;
      timestamp?: string;
    };
    expertScores: { expert: string; score: number; reasoning: string }[];
    reading: Record<string, unknown>;
  };
  // The timestamp is the moment of the doc's run.
  const { timestamp: _when, ...consensusShown } = parsed.consensus;
  const shown = { ...parsed, consensus: consensusShown };
  const others = /the other three score (\d+), (\d+) and (\d+)/.exec(doc.slice(at, at + 200))!;

  it("is what the offline scorer answers for that request, word for word", async () => {
    const { report } = await scoreTask(
      { task: shown.task, description: shown.description },
      { scorer: offlineScorer, clock: () => new Date(0) },
    );
    expect(report.consensus).toMatchObject(shown.consensus);
    for (const e of shown.expertScores)
      expect(report.expertScores.find((x) => x.expert === e.expert)).toMatchObject(e);
    const rest = report.expertScores
      .filter((x) => !shown.expertScores.some((e) => e.expert === x.expert))
      .map((x) => x.score);
    expect(rest).toEqual(others.slice(1, 4).map(Number));
    expect(report.reading).toEqual(shown.reading);
  });
});
