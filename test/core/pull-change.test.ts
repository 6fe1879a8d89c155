import { describe, expect, it } from "@jest/globals";
import { renderChangeText } from "../../src/core/change/render-change.js";
import { readChangeSource, type ChangeSource } from "../../src/core/change/pull-change.js";
import { fromGitHub, readChangeFromFiles } from "../../src/core/change/read-change.js";
import { PERSONAS } from "../../src/core/personas.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import { scoreTask } from "../../src/core/score-task.js";
import type { PersonaVerdict, Scorer } from "../../src/core/scorer.js";

const verdicts: PersonaVerdict[] = PERSONAS.map((p) => ({ persona: p.id, score: 7, reasoning: "ok" }));

/** A scorer that records what it was given: the change must never reach it. */
function spyScorer() {
  const seen: unknown[] = [];
  const scorer: Scorer = {
    name: "spy",
    score: async (input, options) => {
      seen.push({ input, options });
      return verdicts;
    },
  };
  return { scorer, seen };
}

const github = [
  { filename: "src/a.ts", status: "modified", additions: 10, deletions: 2, patch: "@@" },
  { filename: "src/a.test.ts", status: "added", additions: 20, deletions: 0, patch: "@@" },
  { filename: "package-lock.json", status: "modified", additions: 300, deletions: 100, patch: "@@" },
];

describe("a pull request's change in scoreTask", () => {
  it("the files the App or the Action listed give reading.change; the scorer never sees them", async () => {
    const { scorer, seen } = spyScorer();
    const change: ChangeSource = { kind: "files", files: github.map(fromGitHub), truncated: false };
    const { report } = await scoreTask({ task: "Add export", description: "" }, { scorer, change });
    expect(report.reading.change).toEqual(readChangeFromFiles(github, false));
    expect(ScoreReportSchema.parse(report)).toEqual(report);
    expect(JSON.stringify(seen)).not.toContain("src/a.ts");
  });

  it("a diff in the input wins over a listed change", async () => {
    const { scorer } = spyScorer();
    const diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
    const { report } = await scoreTask(
      { task: "Fix", description: "", diff },
      { scorer, change: { kind: "totals", additions: 9, deletions: 9, files: 9 } },
    );
    expect(report.reading.change).toMatchObject({ files: 1, additions: 1, deletions: 1 });
    expect(report.reading.change?.totalsOnly).toBeUndefined();
  });

  it("without a change, no reading.change", async () => {
    const { report } = await scoreTask({ task: "Fix", description: "" }, { scorer: spyScorer().scorer });
    expect(report.reading.change).toBeUndefined();
  });
});

describe("a change from the pull request's totals only", () => {
  it("states the counts and says the files were not listed; nothing about tests or generated files", () => {
    const { reading, files } = readChangeSource({ kind: "totals", additions: 412, deletions: 37, files: 9 });
    expect(files).toBeUndefined();
    expect(reading).toEqual({
      files: 9,
      additions: 412,
      deletions: 37,
      tests: { files: 0 },
      docs: 0,
      generated: 0,
      dependencies: [],
      size: "L",
      truncated: false,
      totalsOnly: true,
    });
    const line = renderChangeText(reading);
    expect(line).toBe("+412 −37 in 9 files · size L · files not listed (the pull request's totals)");
    expect(line).not.toMatch(/test/);
  });

  it("reads odd totals (missing, negative, fractional) as 0", () => {
    const { reading } = readChangeSource({ kind: "totals", additions: -1, deletions: 1.5, files: NaN });
    expect(reading).toMatchObject({ files: 0, additions: 0, deletions: 0, size: "XS" });
  });
});
