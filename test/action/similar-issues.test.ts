import { describe, expect, it, jest } from "@jest/globals";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { examplePayload } from "../helpers/action-runner.js";
import { type FakeIssue } from "../helpers/fake-github.js";
import { actionTestBed, fakeActionsCore } from "../helpers/fake-toolkit.js";
import { AGAIN, FIRST, MORE, OTHER } from "../helpers/similar-texts.js";

/**
 * The Action compares an issue with the repository's open issues (issue 32, Deliver 5), listed with the workflow's
 * token from the stand-in GitHub on loopback, no database: the comment's "Possibly the same as" line, the job
 * summary, the `similar` output and the opt-in `duplicate-label`; a listing the token may not make costs the line
 * only.
 */
const inputValues = new Map<string, string>();
const toolkit = fakeActionsCore((name) => inputValues.get(name) ?? "");
const { summaries } = toolkit;
jest.unstable_mockModule("@actions/core", () => toolkit.module);
const core = jest.mocked(await import("@actions/core"));
const { getOctokit } = await import("@actions/github");
const { runAction } = await import("../../action/run-action.js");

const TOKEN = "ghs_fakeSimilarToken";
const REPO = "Codertocat/Hello-World";
const KEY = (n: number) => `${REPO}#${n}`;
const github = actionTestBed({ inputs: inputValues, summaries, token: TOKEN });

/** The repository's issues as GitHub lists them: #1, #2, #3 a pull request repeating #1, #4 the refiling, #6. */
function backlog(): FakeIssue[] {
  return [
    { number: 1, ...FIRST },
    { number: 2, ...OTHER },
    { number: 3, ...AGAIN, pull_request: true },
    { number: 4, ...AGAIN },
    { number: 6, ...MORE },
  ];
}

function issueEvent(number: number, text: { title: string; body: string }) {
  return {
    eventName: "issues",
    payload: examplePayload("issues", "opened", (p) => {
      p.issue.number = number;
      p.issue.title = text.title;
      p.issue.body = text.body;
      p.issue.labels = (github.issueLabels.get(KEY(number)) ?? []).map((name) => ({ name }));
    }),
  };
}

function run(context: ReturnType<typeof issueEvent>) {
  return runAction({
    core,
    context,
    getOctokit: (token) => getOctokit(token, { baseUrl: github.url }),
    createScorer: () => ({ scorer: offlineScorer, description: "offline" }),
    env: { GITHUB_STEP_SUMMARY: "/dev/null" },
    clock: () => new Date("2026-11-27T12:00:00.000Z"),
  });
}

const outputs = () => Object.fromEntries(core.setOutput.mock.calls.map(([k, v]) => [k, String(v)]));
const listings = () =>
  github.requests.filter((r) => r.method === "GET" && r.path === `/repos/${REPO}/issues`);
const LINE = /Possibly the same as|Related:/;

describe("the Action names an earlier open issue like the event's", () => {
  it("a refiling gets 'Possibly the same as #1' in its comment and summary, and the `similar` output", async () => {
    github.repoIssues.set(REPO, backlog());
    const result = await run(issueEvent(4, AGAIN));
    expect(result.ok).toBe(true);

    const [comment] = github.commentsOn(KEY(4));
    expect(comment!.body).toContain(REPORT_MARKER);
    expect(comment!.body).toContain(
      `**Possibly the same as** #1 “Export to CSV fails on empty reports” (open)`,
    );
    expect(summaries.join("")).toContain("**Possibly the same as** #1");
    const similar = JSON.parse(outputs().similar!) as {
      number: number;
      similarity: number;
      duplicate: boolean;
    }[];
    expect(similar[0]).toEqual({ number: 1, similarity: expect.any(Number), duplicate: true });
    expect(similar[0]!.similarity).toBeGreaterThanOrEqual(0.84);
    // Only earlier issues, never itself, never the pull request #3.
    expect(similar.every((s) => s.number < 4 && s.number !== 3)).toBe(true);
    expect(similar.slice(1).every((s) => !s.duplicate)).toBe(true);
    // One page with the workflow's token, open issues, newest first.
    expect(listings()).toHaveLength(1);
    expect(listings()[0]!.authorization).toBe(`token ${TOKEN}`);
    expect(new URLSearchParams(listings()[0]!.query)).toEqual(
      new URLSearchParams({ state: "open", sort: "created", direction: "desc", per_page: "100", page: "1" }),
    );
    // Nothing written on #1, no label without `duplicate-label`.
    expect(github.commentsOn(KEY(1))).toEqual([]);
    expect(github.issueLabels.get(KEY(4))).toBeUndefined();
    expect(core.warning).not.toHaveBeenCalled();
  });

  it("names no later issue: #1, repeated by #4 since, gets no line and an empty `similar`", async () => {
    github.repoIssues.set(REPO, backlog());
    expect((await run(issueEvent(1, FIRST))).ok).toBe(true);
    expect(github.commentsOn(KEY(1))[0]!.body).not.toMatch(LINE);
    expect(outputs().similar).toBe("[]");
  });

  it("an unrelated issue gets no line and no duplicate", async () => {
    github.repoIssues.set(REPO, backlog());
    github.configFiles.set(REPO, "duplicate-label: true\n");
    expect((await run(issueEvent(6, MORE))).ok).toBe(true);
    expect(github.commentsOn(KEY(6))[0]!.body).not.toMatch(LINE);
    const similar = JSON.parse(outputs().similar!) as { duplicate: boolean }[];
    expect(similar.some((s) => s.duplicate)).toBe(false);
    expect(github.issueLabels.get(KEY(6))).toBeUndefined();
  });

  it("honours duplicate-label: the refiling is labelled, its own labels kept, nothing else touched", async () => {
    github.repoIssues.set(REPO, backlog());
    github.configFiles.set(REPO, "duplicate-label: refiled?\n");
    github.issueLabels.set(KEY(4), ["keep-me"]);
    expect((await run(issueEvent(4, AGAIN))).ok).toBe(true);
    expect(github.issueLabels.get(KEY(4))!.sort()).toEqual(["keep-me", "refiled?"]);
    expect(github.issueLabels.get(KEY(1))).toBeUndefined();
    expect(github.requests.filter((r) => r.method === "DELETE" || r.method === "PATCH")).toEqual([]);
    expect(core.info).toHaveBeenCalledWith("Labels on issue #4: added refiled?; none removed.");
  });

  it("reads at most three pages of 100", async () => {
    const filler = Array.from({ length: 400 }, (_, i) => ({
      number: i + 1,
      title: `Filler issue ${i + 1}`,
      body: `Nothing alike number ${i + 1}.`,
    }));
    github.repoIssues.set(REPO, [...filler, { number: 401, ...AGAIN }]);
    expect((await run(issueEvent(401, AGAIN))).ok).toBe(true);
    expect(listings().map((r) => new URLSearchParams(r.query).get("page"))).toEqual(["1", "2", "3"]);
    expect(core.info).toHaveBeenCalledWith(
      expect.stringMatching(/^Compared issue #401 with 299 open issues \(3 pages\)/),
    );
  });

  it("a listing the token may not make (403) gives the report without the line, the output or a label", async () => {
    github.repoIssues.set(REPO, backlog());
    github.configFiles.set(REPO, "duplicate-label: true\n");
    github.failWith("GET", /^\/repos\/[^/]+\/[^/]+\/issues$/, 403);
    const result = await run(issueEvent(4, AGAIN));
    expect(result.ok).toBe(true);
    const [comment] = github.commentsOn(KEY(4));
    expect(comment!.body).toContain(REPORT_MARKER);
    expect(comment!.body).not.toMatch(LINE);
    expect(outputs().similar).toBeUndefined();
    expect(outputs().report).toBeDefined();
    expect(github.issueLabels.get(KEY(4))).toBeUndefined();
    expect(core.warning).toHaveBeenCalledWith(expect.stringContaining("add `issues: read`"));
  });

  it("a rate limit's 403 is not taken for a missing permission", async () => {
    github.repoIssues.set(REPO, backlog());
    github.faults.push({
      method: "GET",
      path: /^\/repos\/[^/]+\/[^/]+\/issues$/,
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1893456000" },
      body: { message: "API rate limit exceeded" },
    });
    expect((await run(issueEvent(4, AGAIN))).ok).toBe(true);
    expect(github.commentsOn(KEY(4))[0]!.body).not.toMatch(LINE);
    expect(core.warning).toHaveBeenCalledWith(
      "The repository's open issues could not be listed (GitHub answered 403); the report goes without the similar-issues line.",
    );
  });

  it("compares nothing for a pull request or when the `task` input is scored", async () => {
    github.repoIssues.set(REPO, backlog());
    inputValues.set("task", "CSV export fails when the report is empty");
    expect((await run(issueEvent(4, AGAIN))).ok).toBe(true);
    inputValues.delete("task");
    const pullRequest = examplePayload("pull_request", "opened", (p) => {
      p.pull_request.title = AGAIN.title;
      p.pull_request.body = AGAIN.body;
    });
    expect((await run({ eventName: "pull_request", payload: pullRequest })).ok).toBe(true);
    expect(listings()).toEqual([]);
    expect(outputs().similar).toBeUndefined();
  });
});
