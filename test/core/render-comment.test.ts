import { describe, expect, it } from "@jest/globals";
import { evaluateApproval } from "../../src/core/approval.js";
import { PERSONAS } from "../../src/core/personas.js";
import { buildReport } from "../../src/core/score-task.js";
import { REPORT_MARKER, renderReport } from "../../src/core/render-comment.js";

const now = new Date("2026-11-22T10:00:00.000Z");
const DESCRIPTION = "Customers keep asking to pay by card; today they must email us for an invoice.";

function reportWith(
  scores: number[],
  reasoning: (i: number) => string,
  description = "",
  task = "Add Stripe checkout",
) {
  const verdicts = PERSONAS.map((p, i) => ({ persona: p.id, score: scores[i]!, reasoning: reasoning(i) }));
  return buildReport({ task, description }, verdicts, now);
}

describe("renderReport", () => {
  it("compact (the default): a neutral heading, what would raise the score, the personas folded", () => {
    const { report, approval } = reportWith([6, 4, 5, 5, 4], (i) => `Reason number ${i + 1}.`, DESCRIPTION);
    const md = renderReport(report, approval, {
      scorer: "offline",
      hint: "Comment `/score` to score again.",
    });
    expect(md).toMatchSnapshot();
    expect(md.startsWith(REPORT_MARKER)).toBe(true);
    expect(md).toContain("### Task score 4.8 / 10 · below the approval bar");
    expect(md).not.toMatch(/❌|Not approved/);
    expect(md).toMatch(/<details>[\s\S]*Revenue Expert[\s\S]*<\/details>/);
  });

  it("full: the same report with the persona table open", () => {
    const { report, approval } = reportWith([9, 6, 5, 8, 7], (i) => `Reason number ${i + 1}.`, DESCRIPTION);
    const md = renderReport(report, approval, {
      scorer: "offline",
      hint: "Comment `/score` to score again.",
      style: "full",
    });
    expect(md).toMatchSnapshot();
    expect(md).toContain("### Task score 7 / 10 · meets the approval bar");
    expect(md).not.toContain("<details>");
  });

  it("shows the author's ask first, right under the heading, and no 'Asks' line where there is none", () => {
    const asking =
      "Hi team,\n\nPlease add card payments at checkout; today customers must email us for an invoice.";
    const { report, approval } = reportWith([6, 4, 5, 5, 4], () => "x", asking);
    expect(report.reading.ask).toBe(
      "Please add card payments at checkout; today customers must email us for an invoice.",
    );
    const md = renderReport(report, approval, { scorer: "offline" });
    const lines = md.split("\n").filter(Boolean);
    expect(lines[2]).toBe(
      "**Asks:** “Please add card payments at checkout; today customers must email us for an invoice.”",
    );
    const none = reportWith([6, 4, 5, 5, 4], () => "x", "Version 2.3.1 on Ubuntu 22.04.");
    expect(none.report.reading.ask).toBeNull();
    expect(renderReport(none.report, none.approval, { scorer: "offline" })).not.toContain("Asks:");
  });

  it("names no kind for a pull request's own text sent without its change", () => {
    const pr = reportWith(
      [6, 6, 6, 6, 6],
      () => "x",
      "Adds H264 writer support on Android.\n\n### Pull Request Readiness Checklist\n\n- [x] I agree to contribute under the Apache 2 License.",
    );
    expect(pr.report.reading.pullRequest).toBe(true);
    const md = renderReport(pr.report, pr.approval, { scorer: "offline" });
    expect(md).toContain("**Read as** a pull request's description");
    expect(md).not.toMatch(/Read as\*\* (?:a feature request|a bug report)/);
    expect(
      reportWith([6, 6, 6, 6, 6], () => "x", "In this PR I add retries to the upload.").report.reading
        .pullRequest,
    ).toBe(true);
    const issue = reportWith([6, 6, 6, 6, 6], () => "x", "Please add card payments at checkout.");
    expect(issue.report.reading.pullRequest).toBeUndefined();
    // An issue that names another change ("[this PR](…)" as a link, "since this PR") is still an issue.
    for (const named of [
      "Saving fails with a header error; I think [this PR](https://example.com/o/r/pull/9) broke it.",
      "Saving has failed with a header error since this PR was merged.",
      "The retry code repeats the common one. Issue identified in this PR: [Add a static retry](https://example.com/o/r/pull/12)",
      "Renames broke after a check introduced as part of this PR; the retry it added does not help.",
    ])
      expect(reportWith([6, 6, 6, 6, 6], () => "x", named).report.reading.pullRequest).toBeUndefined();
  });

  it("escapes the author's ask: no ping, no HTML, no broken line", () => {
    const { report, approval } = reportWith(
      [5, 5, 5, 5, 5],
      () => "x",
      "Please stop pinging @octocat <b>every</b> time the build fails.",
      "Stop pinging octocat on every failed build",
    );
    const md = renderReport(report, approval, { scorer: "offline" });
    const ask = md.split("\n").find((l) => l.startsWith("**Asks:**"))!;
    expect(ask).toMatch(
      /^\*\*Asks:\*\* “Please stop pinging .*octocat &lt;b&gt;every&lt;\/b&gt; time the build fails\.”$/,
    );
    expect(ask).not.toContain("@");
    // GitHub shows "&#64;" as "@" (without the ping); an escaped "&\\#64;" would show those five characters.
    expect(ask).toContain("pinging &#64;octocat");
    expect(ask).not.toContain("\\#64");
  });

  it("says what would raise the score from what the task leaves out, and nothing when it lacks nothing", () => {
    const { report, approval } = reportWith([5, 5, 5, 5, 5], () => "x");
    expect(renderReport(report, approval, { scorer: "offline", gaps: ["steps_to_reproduce"] })).toContain(
      "**What would raise the score:** add numbered steps to reproduce.",
    );
    const complete = reportWith(
      [8, 8, 8, 8, 8],
      () => "x",
      "40 customers asked for card payments last quarter.\n\n- [ ] Checkout works with Visa\n- [ ] Receipts are emailed",
    );
    expect(renderReport(complete.report, complete.approval, { scorer: "offline" })).not.toContain(
      "What would raise",
    );
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

  it("names the unmet condition when below the bar", () => {
    const scores = [10, 10, 5, 5, 5];
    const { report } = reportWith(scores, () => "x");
    const md = renderReport(report, evaluateApproval(scores), { scorer: "offline" });
    expect(md).toContain("below the approval bar");
    expect(md).toContain("- ▫️ 2 of 5 personas score 7 or more (3 needed)");
  });
});

describe("the Change line (issue 31)", () => {
  const verdicts = PERSONAS.map((p) => ({ persona: p.id, score: 6, reasoning: "Fine." }));
  const file = (path: string, add: number, del: number) =>
    [
      `diff --git a/${path} b/${path}`,
      `--- a/${path}`,
      `+++ b/${path}`,
      `@@ -1,${del} +1,${add} @@`,
      ...Array.from({ length: del }, () => "-old"),
      ...Array.from({ length: add }, () => "+new"),
      "",
    ].join("\n");

  it("says the files, lines, tests, generated files and size, after the Asks line", () => {
    const diff =
      file("src/checkout.ts", 300, 30) +
      file("src/checkout.test.ts", 80, 5) +
      file("test/pay.spec.ts", 20, 2) +
      file("dist/index.js", 12, 0);
    const { report, approval } = buildReport(
      { task: "Add Stripe checkout", description: "Please add card payments at checkout.", diff },
      verdicts,
      now,
    );
    const md = renderReport(report, approval, { scorer: "offline" }).split("\n");
    const at = md.indexOf("**Change:** +412 −37 in 4 files · tests: 2 files · generated: 1 · size L");
    expect(at).toBeGreaterThan(0);
    expect(md.findIndex((l) => l.startsWith("**Asks:**"))).toBe(at - 2);
  });

  it("says when no test file was touched, and has no Change line without a change", () => {
    const one = buildReport(
      { task: "Fix typo", description: "", diff: file("README.md", 1, 1) },
      verdicts,
      now,
    );
    expect(renderReport(one.report, one.approval, { scorer: "offline" })).toContain(
      "**Change:** +1 −1 in 1 file · no test files · size XS",
    );
    const none = buildReport({ task: "Fix typo", description: "" }, verdicts, now);
    expect(renderReport(none.report, none.approval, { scorer: "offline" })).not.toContain("Change:");
  });
});

describe("claims only where the finder behind them is reliable (issue 35)", () => {
  // Thirty words or more: "a bug report" is not said on less (BUG_CLAIM_MIN_WORDS).
  const LONG =
    "Customers keep asking to pay by card; today they must email us for an invoice, wait a day for it, and pay by " +
    "bank transfer, which delays every order and loses some of them at the checkout page.";
  const base = reportWith([5, 5, 5, 5, 5], () => "R.", LONG);
  const render = (report: typeof base.report) => renderReport(report, base.approval, { scorer: "offline" });
  const withReading = (reading: Partial<typeof base.report.reading>): typeof base.report =>
    ({ ...base.report, reading: { ...base.report.reading, ...reading } }) as typeof base.report;

  it("asks for nothing a bug report may already have: no steps, versions, expected/actual or logs advice", () => {
    const { report, approval } = buildReport(
      {
        task: "Saving a draft loses the last paragraph",
        description:
          "When I press Save the newest paragraph vanishes from the draft and never comes back after reload.",
      },
      PERSONAS.map((p) => ({ persona: p.id, score: 5, reasoning: "R." })),
      now,
    );
    const md = renderReport(report, approval, { scorer: "offline" });
    expect(md).not.toMatch(/numbered steps|the versions you use|what you expected|error output or logs/);
  });

  it("names the kind only at the 90%-right bar, never a question, and no severity word", () => {
    const sure = render(
      withReading({ kind: "bug", kindConfidence: 0.86, severity: "wrong_result", evidence: [] }),
    );
    expect(sure).toContain("**Read as** a bug report (86% sure)");
    expect(sure).not.toMatch(/wrong result/);
    const unsure = render(withReading({ kind: "bug", kindConfidence: 0.47, evidence: [] }));
    expect(unsure).not.toMatch(/Read as|a bug report/);
    const question = render(withReading({ kind: "question", kindConfidence: 0.92, evidence: [] }));
    expect(question).not.toMatch(/a question/);
  });

  it("says no bug report on a short description: read from the title alone, the kind is often wrong", () => {
    const short = {
      ...withReading({ kind: "bug", kindConfidence: 0.9, evidence: [] }),
      description: "It fails.",
    };
    expect(render(short)).not.toMatch(/Read as|a bug report/);
    const enhancement = {
      ...withReading({ kind: "feature", kindConfidence: 0.9, evidence: [] }),
      description: "",
    };
    expect(render(enhancement)).toContain("**Read as** an enhancement request (90% sure)");
  });

  /** The comment for a report the reader took for `kind` at `confidence`, under the title `task`. */
  const titled = (task: string, kind: "bug" | "feature", confidence: number) =>
    render({ ...withReading({ kind, kindConfidence: confidence, evidence: [] }), task });

  it("names no kind for upkeep: moving, removing or renaming code is neither a bug report nor a feature request", () => {
    for (const task of [
      "Remove the legacy XML exporter",
      "[build] Move the release scripts to tools/",
      "Fix typos in the admin guide",
    ])
      expect(titled(task, "feature", 0.95)).not.toMatch(/Read as/);
    expect(titled("Add a PDF export", "feature", 0.95)).toContain(
      "**Read as** an enhancement request (95% sure)",
    );
  });

  it("calls no work on the project's tests, build or CI an enhancement request; a failing test is still a bug report", () => {
    for (const task of [
      "Add more tests for the gzip compressor",
      "Disable TestUploadRetries",
      "Test coverage for the CLI",
      "Add .diff to .gitignore",
      "Add a precommit check for the plugins repository",
      "Support HTML5 javadoc",
    ])
      expect(titled(task, "feature", 0.95)).not.toMatch(/Read as/);
    expect(titled("TestUploadRetries fails on Windows", "bug", 0.9)).toContain(
      "**Read as** a bug report (90% sure)",
    );
    expect(titled("Add a testInstance.context property for plugins", "feature", 0.95)).toContain(
      "**Read as** an enhancement request (95% sure)",
    );
  });

  it("names a pull request's change by what it does: a fix, feature work", () => {
    const change = {
      files: 2,
      additions: 10,
      deletions: 3,
      tests: { files: 1 },
      docs: 0,
      generated: 0,
      dependencies: [],
      size: "XS" as const,
      truncated: false,
    };
    const fix = render(withReading({ kind: "bug", kindConfidence: 0.9, evidence: [], change }));
    expect(fix).toContain("**Read as** a fix (90% sure)");
    expect(fix).not.toMatch(/a bug report/);
    const work = render(withReading({ kind: "feature", kindConfidence: 0.95, evidence: [], change }));
    expect(work).toContain("**Read as** feature work (95% sure)");
    expect(work).not.toMatch(/a feature request/);
  });

  it("keeps the evidence below the bar, and says a person should look without naming an unsure kind", () => {
    const md = render(
      withReading({
        kind: "feature",
        kindConfidence: 0.41,
        evidence: [{ type: "versions", quote: "Version 3.2.1 on Linux" }],
      }),
    );
    expect(md).toContain("**Found:** Versions: “Version 3.2.1 on Linux”");
    expect(md).toContain("the reader cannot tell what kind of task this is");
    expect(md).not.toMatch(/feature request/);
  });

  it("quotes no import line or pasted markup as code, and no label or traceback header as evidence", () => {
    const md = render(
      withReading({
        kind: "bug",
        kindConfidence: 0.9,
        evidence: [
          { type: "code", quote: "import numpy as np" },
          { type: "steps", quote: "Expected behavior:" },
          { type: "trace", quote: "Traceback (most recent call last):" },
          { type: "expected_actual", quote: "Expected behavior:" },
        ],
      }),
    );
    expect(md).toContain("**Read as** a bug report (90% sure)\n");
    expect(md).not.toMatch(/import numpy|Traceback|Expected behavior:/);
    const markup = render(
      withReading({
        kind: "bug",
        kindConfidence: 0.9,
        evidence: [{ type: "code", quote: '<html xmlns:o="urn:x">' }],
      }),
    );
    expect(markup).not.toMatch(/Code:/);
  });
});
