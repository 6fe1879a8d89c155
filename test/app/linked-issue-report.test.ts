import { describe, expect, it, jest } from "@jest/globals";
import { readLinkedReports, ownIssues } from "../../src/app/job/linked-reports.js";
import { PERSONA_IDS } from "../../src/core/personas.js";
import type { Scorer } from "../../src/core/scorer.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";
import { headShaOf } from "../helpers/fake-github.js";

/**
 * A pull request that closes an issue the App has scored names that issue's report (issue 31, item 3): the App
 * against the stand-in GitHub with the embedded database scores issue #12, then a pull request whose
 * description says "Fixes #12"; the Product Manager's sentence in its comment gives #12's score and verdict.
 */
const { github, start } = appWithStandIn({ storage: "pglite" });

const REPO = "acme/widgets";
const KEY = (n: number) => `${REPO}#${n}`;

/** Scores by the text's title: an issue's figure is known before the pull request is scored. */
function scorerBy(scores: Record<string, number[]>): { description: string; scorer: Scorer } {
  return {
    description: "fixed",
    scorer: {
      name: "fixed",
      score: async (input) => {
        const s = scores[input.task] ?? [6, 6, 6, 6, 6];
        return PERSONA_IDS.map((persona, i) => ({ persona, score: s[i]!, reasoning: "Reasons." }));
      },
    },
  };
}

function issue(number: number, title: string) {
  return payload("issues", "opened", (p) => {
    p.repository.owner.login = "acme";
    p.repository.name = "widgets";
    p.repository.full_name = REPO;
    p.issue.number = number;
    p.issue.title = title;
    p.issue.body = "Users copy the reports table by hand every week.";
    p.issue.html_url = `https://github.com/${REPO}/issues/${number}`;
    p.sender.type = "User";
  });
}

function pullRequest(number: number, body: string) {
  return payload("pull_request", "opened", (p) => {
    p.repository.owner.login = "acme";
    p.repository.name = "widgets";
    p.repository.full_name = REPO;
    p.pull_request.number = number;
    p.pull_request.title = "Add CSV export to the reports page";
    p.pull_request.body = body;
    p.pull_request.draft = false;
    p.pull_request.head.sha = headShaOf(number);
    delete p.pull_request.changed_files;
    p.pull_request.labels = [];
    p.sender.type = "User";
  });
}

const oneFile = [
  {
    filename: "src/export.ts",
    status: "modified",
    additions: 3,
    deletions: 1,
    changes: 4,
    patch: "@@ -1 +1 @@\n-a\n+b",
  },
];

describe("a pull request names the report of the issue it closes", () => {
  it("gives #12's score and verdict when the App scored #12, and names the others only", async () => {
    const service = await start(
      {},
      scorerBy({
        "Export the reports table as CSV": [7, 8, 7, 8, 7],
        "The reports page is slow": [5, 6, 5, 5, 5],
      }),
    );
    await deliver(service, "issues", issue(12, "Export the reports table as CSV"));
    await deliver(service, "issues", issue(13, "The reports page is slow"));
    await service.queue!.drain();
    expect(github.commentsOn(KEY(12))).toHaveLength(1);

    github.pullFiles.set(KEY(20), oneFile);
    await deliver(
      service,
      "pull_request",
      pullRequest(
        20,
        "Adds an Export CSV button.\n\nFixes #12, closes acme/widgets#13, fixes #14 and fixes acme/api#12",
      ),
    );
    await service.queue!.drain();

    const [comment] = github.commentsOn(KEY(20));
    // #12: 7, 8, 7, 8, 7 → 7.4, approved; #13 named in full: 5.2, below; #14 not scored, another repository's
    // #12 not looked up: named only. (The comment escapes Markdown: "\#12 \(".)
    expect(comment!.body).toContain(
      "Its description says it closes \\#12 \\(scored 7.4, approved\\), acme/widgets\\#13 \\(scored 5.2, below the approval bar\\), \\#14 and 1 more.",
    );
  }, 60_000);

  it("without a report for the issue, the issue is named only", async () => {
    const service = await start({}, scorerBy({}));
    github.pullFiles.set(KEY(21), oneFile);
    await deliver(service, "pull_request", pullRequest(21, "Fixes #12"));
    await service.queue!.drain();
    expect(github.commentsOn(KEY(21))[0]!.body).toContain("Its description says it closes \\#12.");
  });
});

describe("the lookup", () => {
  const log = { warn: jest.fn() } as any;
  const run = (body: string) => ({
    subject: { isPullRequest: true, body } as any,
    repository: "Acme/Widgets",
    log,
  });

  it("takes the repository's own issues only, the first five, each number once", () => {
    const own = ownIssues(
      "Fixes #1, fixes acme/widgets#1, fixes other/repo#2, fixes #3, #4 closes #4, closes #5, closes #6, closes #7, closes #8",
      "Acme/Widgets",
    );
    expect([...own]).toEqual([
      [1, ["#1", "acme/widgets#1"]],
      [3, ["#3"]],
      [4, ["#4"]],
      [5, ["#5"]],
      [6, ["#6"]],
    ]);
  });

  it("asks the backlog once for at most five issues, and a failed lookup names the issues only", async () => {
    const reports = jest.fn(
      async (_repository: string, numbers: readonly number[]) =>
        new Map(numbers.filter((n) => n !== 2).map((n) => [n, { score: n + 0.5, approved: n > 3 }])),
    );
    const linked = await readLinkedReports(
      run("Fixes #1, fixes #2, fixes #3, fixes #4, fixes #5, fixes #6"),
      { reports },
    );
    expect(reports).toHaveBeenCalledTimes(1);
    expect(reports.mock.calls[0]).toEqual(["Acme/Widgets", [1, 2, 3, 4, 5]]);
    expect([...linked!]).toEqual([
      ["#1", { score: 1.5, approved: false }],
      ["#3", { score: 3.5, approved: false }],
      ["#4", { score: 4.5, approved: true }],
      ["#5", { score: 5.5, approved: true }],
    ]);

    const failing = { reports: async () => Promise.reject(new Error("database gone")) };
    expect(await readLinkedReports(run("Fixes #1"), failing)).toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(1);
    // No backlog (storage off), nothing closed, or an issue: no lookup at all.
    expect(await readLinkedReports(run("Fixes #1"), undefined)).toBeUndefined();
    expect(await readLinkedReports(run("Adds a button."), { reports })).toBeUndefined();
    expect(
      await readLinkedReports(
        { ...run("Fixes #1"), subject: { isPullRequest: false, body: "Fixes #1" } as any },
        { reports },
      ),
    ).toBeUndefined();
    expect(reports).toHaveBeenCalledTimes(1);
  });
});
