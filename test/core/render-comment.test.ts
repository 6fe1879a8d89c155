import { describe, expect, it } from "@jest/globals";
import { evaluateApproval } from "../../src/core/approval.js";
import { PERSONAS } from "../../src/core/personas.js";
import { buildReport } from "../../src/core/score-task.js";
import { REPORT_MARKER, renderReport } from "../../src/core/render-comment.js";

const now = new Date("2026-11-22T10:00:00.000Z");

function reportWith(scores: number[], reasoning: (i: number) => string) {
  const verdicts = PERSONAS.map((p, i) => ({ persona: p.id, score: scores[i]!, reasoning: reasoning(i) }));
  return buildReport({ task: "Add Stripe checkout", description: "" }, verdicts, now);
}

describe("renderReport", () => {
  it("renders the five personas, the consensus and each approval condition", () => {
    const { report, approval } = reportWith([9, 6, 5, 8, 7], (i) => `Reason number ${i + 1}.`);
    const md = renderReport(report, approval, {
      scorer: "offline",
      hint: "Comment `/score` to score again.",
    });
    expect(md).toMatchSnapshot();
    expect(md.startsWith(REPORT_MARKER)).toBe(true);
  });

  it("keeps hostile text from breaking the table, pinging people or faking the marker", () => {
    const evil = `Nice | table\nbreak @octocat <img src=x onerror=alert(1)> ${REPORT_MARKER} [click](http://x) ![i](http://x/i.png)`;
    const { report, approval } = reportWith([5, 5, 5, 5, 5], () => evil);
    const md = renderReport(report, approval, {
      scorer: "offline",
      notes: ["key `labels` ignored: @admin <b>"],
    });
    // Only the real marker, once.
    expect(md.split(REPORT_MARKER)).toHaveLength(2);
    expect(md).not.toMatch(/@octocat|@admin/);
    expect(md).not.toMatch(/<img|<b>/);
    expect(md).not.toMatch(/\]\(http/);
    const rows = md.split("\n").filter((l) => l.startsWith("| "));
    expect(rows).toHaveLength(7); // header + 5 personas (+ the separator starts with "| ---")
    for (const row of rows.slice(2)) expect(row.split(/(?<!\\)\|/).length).toBe(5);
  });

  it("names the failed condition when not approved", () => {
    const scores = [10, 10, 5, 5, 5];
    const { report } = reportWith(scores, () => "x");
    const md = renderReport(report, evaluateApproval(scores), { scorer: "offline" });
    expect(md).toContain("❌ Not approved");
    expect(md).toContain("- ❌ 2 of 5 personas score 7 or more (3 needed)");
  });
});
