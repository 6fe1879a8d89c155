import { describe, expect, it } from "@jest/globals";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { isUnreadable } from "../../src/core/offline/unreadable-text.js";
import { scoreTask } from "../../src/core/score-task.js";

/** Deterministic "random" bytes (a linear congruential generator), so a failure can be replayed. */
function bytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const score = async (task: string, description: string) => {
  const { report } = await scoreTask({ task, description }, { scorer: offlineScorer });
  return report;
};

describe("gibberish is thin, scored like an empty task", () => {
  const shapes: Record<string, (seed: number) => string> = {
    "random bytes read as Latin-1": (seed) => bytes(2048, seed).toString("latin1"),
    "random bytes read as UTF-8": (seed) => bytes(2048, seed).toString("utf8"),
    "a base64 blob": (seed) => bytes(1536, seed).toString("base64"),
    "a hex blob": (seed) => bytes(1024, seed).toString("hex"),
  };

  for (const [name, make] of Object.entries(shapes)) {
    it(`${name} as the description adds nothing to the title`, async () => {
      const empty = await score("Add CSV export of reports", "");
      for (const seed of [1, 2, 3]) {
        const noisy = await score("Add CSV export of reports", make(seed));
        expect(noisy.expertScores.map((e) => e.score)).toEqual(empty.expertScores.map((e) => e.score));
        expect(noisy.expertScores[0]!.reasoning).toBe(empty.expertScores[0]!.reasoning);
      }
    });

    it(`${name} as title and description is not a task`, async () => {
      for (const seed of [4, 5, 6]) {
        const report = await score(make(seed).slice(0, 200), make(seed + 10));
        expect(report.consensus.approved).toBe(false);
        for (const e of report.expertScores) expect(e.score).toBeLessThanOrEqual(3);
        expect(report.reading.kind).not.toBe("question");
      }
    });
  }

  it("keeps real text with a pasted binary log, an inline picture, emoji and other scripts", () => {
    const binaryLog = `### Describe the bug\n\nThe exporter writes a corrupt header when the report has more than one page; the first bytes are:\n\n${bytes(120, 9).toString("latin1")}\n\nExpected a PDF header.`;
    expect(isUnreadable(binaryLog)).toBe(false);
    expect(
      isUnreadable(
        `Both steps could merge into one: ![Image](data:image/png;base64,${bytes(3000, 3).toString("base64")})`,
      ),
    ).toBe(false);
    expect(isUnreadable("导出报告时页面崩溃，控制台显示内存不足。请修复这个问题，谢谢！🎉🎉")).toBe(false);
    expect(isUnreadable("Поддержка экспорта в CSV для отчётов, пожалуйста")).toBe(false);
  });
});
