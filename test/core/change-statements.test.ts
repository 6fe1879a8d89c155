import { describe, expect, it } from "@jest/globals";
import { changeStatements, userFacingKind } from "../../src/core/change/change-statements.js";
import type { LinkedReport } from "../../src/core/change/linked-issues.js";
import { readChangeSource } from "../../src/core/change/pull-change.js";
import { fromGitHub, type GitHubPullFile } from "../../src/core/change/read-change.js";
import { PERSONAS } from "../../src/core/personas.js";
import { scoreTask } from "../../src/core/score-task.js";
import type { PersonaVerdict } from "../../src/core/scorer.js";

const file = (filename: string, additions: number, deletions = 0, status = "modified"): GitHubPullFile => ({
  filename,
  status,
  additions,
  deletions,
  patch: "@@",
});

function statements(
  files: GitHubPullFile[],
  description = "",
  truncated = false,
  linked?: ReadonlyMap<string, LinkedReport>,
) {
  return changeStatements(
    readChangeSource({ kind: "files", files: files.map(fromGitHub), truncated }),
    description,
    linked,
  );
}

describe("changeStatements", () => {
  it("gives the architect new lines against edits, the generated share, tests and the manifests touched", () => {
    const said = statements([
      file("src/export.ts", 120, 0, "added"),
      file("src/report.ts", 30, 7),
      file("src/export.test.ts", 40, 0, "added"),
      file("package.json", 1, 0),
      file("package-lock.json", 300, 20),
    ]);
    expect(said.architect).toBe(
      "In the change, 160 lines are in 2 new files and 38 lines change 2 existing files outside generated or vendored files; " +
        "1 generated or vendored file holds 62% of the lines; 1 of the 5 files is a test; it touches package.json and package-lock.json.",
    );
    expect(said.ux).toBeUndefined();
    expect(said.product).toBeUndefined();
  });

  it("says when every file is new, when none is, and when no file is a test", () => {
    expect(statements([file("gen/a.go", 10, 0, "added")]).architect).toBe(
      "In the change, every file is new (10 lines in 1 file); none of the 1 file is a test.",
    );
    expect(statements([file("a.go", 3, 1), file("b.go", 1, 1)]).architect).toBe(
      "In the change, no file is new (6 lines change 2 existing files); none of the 2 files is a test.",
    );
  });

  it("scopes what it says to the files GitHub listed when the list was cut", () => {
    expect(statements([file("a.go", 1, 0)], "", true).architect).toMatch(
      /^Among the first 1 file GitHub listed, /,
    );
  });

  it("names no file whose name could carry markup", () => {
    const said = statements([file("x/<b>evil</b>.csproj", 1), file("a.go", 1)]);
    expect(said.architect).toContain("it touches 1 dependency manifest or lockfile.");
    expect(said.architect).not.toContain("<");
  });

  it("gives the UX designer the user-facing files, only when there are some", () => {
    const said = statements([
      file("web/templates/report.html", 10),
      file("web/styles/report.scss", 5),
      file("web/components/Export.tsx", 30, 0, "added"),
      file("web/components/Export.test.tsx", 30, 0, "added"),
      file("dist/app.min.css", 900),
      file("docs/guide.html", 3),
    ]);
    expect(said.ux).toBe("It changes what users see: 1 template, 1 stylesheet and 1 UI component.");
    expect(statements([file("src/server.ts", 10)]).ux).toBeUndefined();
    expect(userFacingKind("src/Button.stories.tsx")).toBeUndefined();
  });

  it("gives the product manager the issues it closes", () => {
    expect(statements([file("a.go", 1)], "Fixes #12 and closes acme/api#3").product).toBe(
      "Its description says it closes #12 and acme/api#3.",
    );
  });

  it("gives each closed issue's score and verdict where its report is known, and names the others only", () => {
    const linked = new Map<string, LinkedReport>([
      ["#12", { score: 7.4, approved: true }],
      ["#13", { score: 5.125, approved: false }],
      ["#14", { score: 8, approved: true }],
    ]);
    expect(
      statements([file("a.go", 1)], "Fixes #12, fixes #13 and closes acme/api#3", false, linked).product,
    ).toBe(
      "Its description says it closes #12 (scored 7.4, approved), #13 (scored 5.1, below the approval bar) and acme/api#3.",
    );
    expect(statements([file("a.go", 1)], "Resolves #14", false, linked).product).toBe(
      "Its description says it closes #14 (scored 8, approved).",
    );
    // Not in the lookup (not scored, or the lookup failed): named only, as without one.
    expect(statements([file("a.go", 1)], "Fixes #15", false, linked).product).toBe(
      "Its description says it closes #15.",
    );
    expect(statements([file("a.go", 1)], "Fixes #12").product).toBe("Its description says it closes #12.");
    // Another repository's issue is looked up by its own name only: "#12" is not acme/api#12.
    expect(statements([file("a.go", 1)], "Fixes acme/api#12", false, linked).product).toBe(
      "Its description says it closes acme/api#12.",
    );
  });

  it("from the pull request's totals only, says nothing about files", () => {
    const said = changeStatements(
      readChangeSource({ kind: "totals", additions: 5, deletions: 1, files: 2 }),
      "Fixes #4",
    );
    expect(said).toEqual({ product: "Its description says it closes #4." });
  });
});

describe("the statements in a report", () => {
  const verdicts: PersonaVerdict[] = PERSONAS.map((p) => ({
    persona: p.id,
    score: 6,
    reasoning: `${p.expert} reasons.`,
  }));
  const scorer = { name: "fixed", score: async () => verdicts };

  it("each persona's reasoning gets at most one, never another's, and the others none", async () => {
    const diff = [
      "diff --git a/web/templates/a.html b/web/templates/a.html",
      "--- a/web/templates/a.html",
      "+++ b/web/templates/a.html",
      "@@ -1 +1 @@",
      "-old",
      "+new",
      "",
    ].join("\n");
    const { report } = await scoreTask(
      { task: "Fix the header", description: "Fixes #12", diff },
      { scorer },
    );
    const [revenue, architect, ux, product, marketing] = report.expertScores.map((e) => e.reasoning);
    expect(revenue).toBe("Revenue Expert reasons.");
    expect(marketing).toBe("Marketing Strategist reasons.");
    expect(architect).toBe(
      "Technical Architect reasons. In the change, no file is new (2 lines change 1 existing file); none of the 1 file is a test.",
    );
    expect(ux).toBe("UX Designer reasons. It changes what users see: 1 template.");
    expect(product).toBe("Product Manager reasons. Its description says it closes #12.");
    // The scorer's verdicts are left as they were (they are shared between reports).
    expect(verdicts[1]!.reasoning).toBe("Technical Architect reasons.");
    const { report: plain } = await scoreTask(
      { task: "Fix the header", description: "Fixes #12" },
      { scorer },
    );
    expect(plain.expertScores.map((e) => e.reasoning)).toEqual(verdicts.map((v) => v.reasoning));
  });

  it("the product manager's sentence carries the linked issue's report given to scoreTask", async () => {
    const change = {
      kind: "files" as const,
      files: [fromGitHub(file("src/a.ts", 3, 1))],
      truncated: false,
    };
    const input = { task: "Fix the header", description: "Closes #12" };
    const score = (linked?: ReadonlyMap<string, LinkedReport>) =>
      scoreTask(input, { scorer, change, linked }).then((o) => o.report.expertScores[3]!.reasoning);
    expect(await score(new Map([["#12", { score: 6.5, approved: false }]]))).toBe(
      "Product Manager reasons. Its description says it closes #12 (scored 6.5, below the approval bar).",
    );
    expect(await score()).toBe("Product Manager reasons. Its description says it closes #12.");
  });
});
