import { describe, expect, it, jest } from "@jest/globals";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { examplePayload } from "../helpers/action-runner.js";

import { actionTestBed, fakeActionsCore } from "../helpers/fake-toolkit.js";

/**
 * The Action reads a pull request's change (issue 31, phase 2): its files with the workflow's token, against the
 * stand-in GitHub on loopback, and the event's own totals when the token cannot list them.
 */
const inputValues = new Map<string, string>();
const toolkit = fakeActionsCore((name) => inputValues.get(name) ?? "");
jest.unstable_mockModule("@actions/core", () => toolkit.module);
const core = jest.mocked(await import("@actions/core"));
const { getOctokit } = await import("@actions/github");
const { runAction } = await import("../../action/run-action.js");

const TOKEN = "ghs_fakeChangeToken";
const REPO = "Codertocat/Hello-World";
const github = actionTestBed({ inputs: inputValues, token: TOKEN });

function pullRequest(number: number, action = "opened", patch: (p: any) => void = () => {}) {
  return {
    eventName: "pull_request",
    payload: examplePayload("pull_request", action, (p) => {
      p.pull_request.number = number;
      p.pull_request.title = "Add CSV export to the reports page";
      p.pull_request.body = "Users copy tables by hand. Adds an Export CSV button.\n\nCloses #12";
      p.pull_request.labels = (github.issueLabels.get(`${REPO}#${number}`) ?? []).map((name) => ({ name }));
      p.pull_request.additions = 412;
      p.pull_request.deletions = 37;
      p.pull_request.changed_files = 9;
      patch(p);
    }),
  };
}

function run(context: ReturnType<typeof pullRequest>) {
  return runAction({
    core,
    context,
    getOctokit: (token) => getOctokit(token, { baseUrl: github.url }),
    createScorer: () => ({ scorer: offlineScorer, description: "offline" }),
    env: {},
    clock: () => new Date("2026-11-27T12:00:00.000Z"),
  });
}

const files = (n: number, lines = 2) =>
  Array.from({ length: n }, (_, i) => ({
    filename: `src/f${i}.ts`,
    status: "modified",
    additions: lines,
    deletions: 1,
    patch: "@@",
  }));

const fileRequests = (n: number) =>
  github.requests.filter((r) => r.path === `/repos/${REPO}/pulls/${n}/files`);

describe("the Action reads a pull request's change", () => {
  it("lists the files with the workflow's token, page by page, into the report and the comment", async () => {
    github.pullFiles.set(`${REPO}#5`, files(250));
    const result = await run(pullRequest(5, "opened", (p) => (p.pull_request.changed_files = 250)));
    expect(result.ok).toBe(true);
    expect(fileRequests(5)).toHaveLength(3);
    expect(fileRequests(5).every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    expect(result.report?.reading.change).toMatchObject({ files: 250, additions: 500, deletions: 250 });
    const [comment] = github.commentsOn(`${REPO}#5`);
    expect(comment!.body).toContain(REPORT_MARKER);
    expect(comment!.body).toContain("**Change:** +500 −250 in 250 files · no test files · size L");
    expect(comment!.body).toContain("Its description says it closes \\#12.");
    expect(core.warning).not.toHaveBeenCalled();
  });

  it("when the token cannot list them (403), uses the pull request's totals and says what to add", async () => {
    github.failWith("GET", /\/pulls\/6\/files$/, 403);
    const result = await run(pullRequest(6));
    expect(result.ok).toBe(true);
    expect(fileRequests(6)).toHaveLength(1);
    expect(result.report?.reading.change).toEqual({
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
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining("add `pull-requests: read`"));
    const [comment] = github.commentsOn(`${REPO}#6`);
    expect(comment!.body).toContain(
      "**Change:** +412 −37 in 9 files · size L · files not listed (the pull request's totals)",
    );
    // Nothing said about tests or files no one listed; the issue it closes is still read from its text.
    expect(comment!.body).not.toMatch(/test files|is a test|are tests|new file/);
    expect(comment!.body).toContain("closes \\#12");
  });

  it("honours size-labels: one label, replaced when new commits change the band", async () => {
    github.configFiles.set(REPO, "size-labels: true\n");
    github.pullFiles.set(`${REPO}#7`, files(3));
    expect((await run(pullRequest(7))).ok).toBe(true);
    expect(github.issueLabels.get(`${REPO}#7`)).toEqual(["size/S"]);
    github.pullFiles.set(`${REPO}#7`, files(5, 40));
    expect((await run(pullRequest(7, "synchronize"))).ok).toBe(true);
    expect(github.issueLabels.get(`${REPO}#7`)).toEqual(["size/M"]);
    expect(github.commentsOn(`${REPO}#7`)).toHaveLength(1);
  });

  it("an issue lists nothing", async () => {
    const result = await runAction({
      core,
      context: { eventName: "issues", payload: examplePayload("issues", "opened") },
      getOctokit: (token) => getOctokit(token, { baseUrl: github.url }),
      createScorer: () => ({ scorer: offlineScorer, description: "offline" }),
      env: {},
    });
    expect(result.ok).toBe(true);
    expect(result.report?.reading.change).toBeUndefined();
    expect(github.requests.filter((r) => r.path.includes("/pulls/"))).toEqual([]);
  });
});
