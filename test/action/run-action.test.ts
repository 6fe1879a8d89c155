import { describe, expect, it, jest } from "@jest/globals";
import type { CreatedScorer, ScorerSettings } from "../../src/llm/create-scorer.js";
import { ConfigError, ScorerUnavailableError } from "../../src/core/errors.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { scoreTask } from "../../src/core/score-task.js";
import type { Scorer } from "../../src/core/scorer.js";

import { actionTestBed, fakeActionsCore } from "../helpers/fake-toolkit.js";
import { examplePayload } from "../helpers/action-runner.js";

/**
 * runAction with @actions/core mocked (as the runner's toolkit would be) and a real Octokit from
 * @actions/github talking to the fake GitHub API on loopback.
 */

const inputValues = new Map<string, string>();
const toolkit = fakeActionsCore((name) => inputValues.get(name) ?? "");
const { summaries, summaryWrite } = toolkit;
jest.unstable_mockModule("@actions/core", () => toolkit.module);

const core = jest.mocked(await import("@actions/core"));
const { getOctokit } = await import("@actions/github");
const { runAction } = await import("../../action/run-action.js");
type Deps = Parameters<typeof runAction>[0];

const TOKEN = "ghs_fakeUnitToken";
const KEY = "sk-fake-unit-key";
const NOW = new Date("2026-05-01T12:00:00.000Z");
const github = actionTestBed({ inputs: inputValues, summaries });

function setInputs(values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) inputValues.set(k, v);
}

function deps(overrides: Partial<Deps> = {}): Deps {
  return {
    core,
    context: { eventName: "workflow_dispatch", payload: {} },
    getOctokit: (token) => getOctokit(token, { baseUrl: github.url }),
    createScorer: () => ({ scorer: offlineScorer, description: "offline" }),
    env: { GITHUB_STEP_SUMMARY: "/dev/null" },
    clock: () => NOW,
    ...overrides,
  };
}

function outputs(): Record<string, string> {
  return Object.fromEntries(core.setOutput.mock.calls.map(([k, v]) => [k, String(v)]));
}

function issuesEvent(patch: (p: any) => void = () => {}) {
  return { eventName: "issues", payload: examplePayload("issues", "opened", patch) };
}

describe("runAction: scoring and outputs", () => {
  it("writes the core's report as the outputs, unchanged", async () => {
    setInputs({
      task: "Add Stripe checkout",
      description: "Let free users upgrade to Pro",
      comment: "false",
    });
    const result = await runAction(deps());
    expect(result.ok).toBe(true);
    const expected = await scoreTask(
      { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" },
      { scorer: offlineScorer, clock: () => NOW },
    );
    expect(JSON.parse(outputs().report!)).toEqual(expected.report);
    expect(outputs()).toEqual({
      "avg-score": String(expected.report.consensus.avgScore),
      "min-score": String(expected.report.consensus.minScore),
      "max-score": String(expected.report.consensus.maxScore),
      approved: String(expected.report.consensus.approved),
      report: JSON.stringify(expected.report),
      kind: expected.report.reading.kind,
      evidence: JSON.stringify(expected.report.reading.evidence),
    });
    expect(core.setFailed).not.toHaveBeenCalled();
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain(REPORT_MARKER);
    expect(summaryWrite).toHaveBeenCalledTimes(1);
  });

  it("passes the thresholds to the core, which decides approval", async () => {
    setInputs({ task: "Add Stripe checkout", comment: "false" });
    await runAction(deps());
    expect(outputs().approved).toBe("false");
    jest.clearAllMocks();
    setInputs({ "min-average": "1", "min-score": "1", "min-supporters": "0" });
    await runAction(deps());
    expect(outputs().approved).toBe("true");
    expect(summaries.at(-1)).toContain("meets the approval bar");
  });

  it("hands the scorer inputs to createScorer and shows its description in the report", async () => {
    setInputs({
      task: "Add CSV export",
      comment: "false",
      scorer: "openai",
      "openai-api-key": KEY,
      "openai-base-url": "http://127.0.0.1:9/v1",
      model: "tiny-model",
    });
    const seen: ScorerSettings[] = [];
    await runAction(
      deps({
        createScorer: (settings) => {
          seen.push(settings);
          return { scorer: offlineScorer, description: "openai tiny-model" };
        },
      }),
    );
    expect(seen).toEqual([
      { scorer: "openai", openaiApiKey: KEY, openaiBaseUrl: "http://127.0.0.1:9/v1", model: "tiny-model" },
    ]);
    expect(summaries[0]).toContain("Scored by task-scorer (openai tiny-model)");
  });

  it("masks the secrets before anything else, even when the inputs are invalid", async () => {
    setInputs({ "openai-api-key": ` ${KEY} `, "github-token": TOKEN, comment: "perhaps" });
    const result = await runAction(deps());
    expect(core.setSecret.mock.calls).toEqual([[KEY], [TOKEN]]);
    expect(core.setSecret.mock.invocationCallOrder[0]).toBeLessThan(
      core.setFailed.mock.invocationCallOrder[0]!,
    );
    expect(result.message).toContain("`comment` must be `true` or `false`");
    expect(JSON.stringify(core.setFailed.mock.calls)).not.toContain(KEY);
  });

  it("warns, and notes in the report, when the issue body was shortened", async () => {
    setInputs({ comment: "false" });
    await runAction(deps({ context: issuesEvent((p) => (p.issue.body = "x".repeat(70_000))) }));
    const warning = "The body of issue #1 is 70,000 characters; only the first 65,536 were scored.";
    expect(core.warning).toHaveBeenCalledWith(warning);
    expect(summaries[0]).toContain(`> ⚠️ ${warning.replace("#", "\\#")}`); // escaped by the renderer
    expect(JSON.parse(outputs().report!).description).toHaveLength(65_536);
  });

  it("writes no job summary outside a runner, and still succeeds", async () => {
    setInputs({ task: "Add CSV export", comment: "false" });
    const result = await runAction(deps({ env: {} }));
    expect(result.ok).toBe(true);
    expect(summaries).toEqual([]);
  });
});

describe("runAction: one failure path to setFailed", () => {
  const failing = (error: Error): (() => CreatedScorer) => {
    const scorer: Scorer = { name: "openai", score: async () => Promise.reject(error) };
    return () => ({ scorer, description: "openai gpt-4o-mini" });
  };

  it("a model failure fails the step with what to check, and writes no outputs", async () => {
    setInputs({ task: "Add CSV export", comment: "false" });
    const result = await runAction(
      deps({ createScorer: failing(new ScorerUnavailableError("The model provider could not be reached.")) }),
    );
    expect(result.ok).toBe(false);
    expect(core.setFailed).toHaveBeenCalledTimes(1);
    expect(core.setFailed).toHaveBeenCalledWith(
      "The model provider could not be reached. Check `openai-api-key`, `openai-base-url` and `model`, or use `scorer: offline`.",
    );
    expect(core.setOutput).not.toHaveBeenCalled();
  });

  it("a scorer configuration error says which inputs to check", async () => {
    setInputs({ task: "Add CSV export" });
    const result = await runAction(
      deps({
        createScorer: () => {
          throw new ConfigError("The model name is not valid.");
        },
      }),
    );
    expect(result.message).toBe(
      "The model name is not valid. Check the scorer inputs (`scorer`, `openai-api-key`, `openai-base-url`, `model`).",
    );
  });

  it("the scorer's messages name the Action's inputs, not the server's environment variables", async () => {
    setInputs({ task: "Add CSV export" });
    const result = await runAction(
      deps({
        createScorer: () => {
          throw new ConfigError(
            "SCORER=openai needs OPENAI_API_KEY. For a local server, set any value, e.g. OPENAI_API_KEY=local.",
          );
        },
      }),
    );
    expect(result.message).toMatch(
      /^`scorer: openai` needs `openai-api-key`\. For a local server, set any value, e\.g\. `openai-api-key: local`\. Check/,
    );
  });

  it("an unexpected error is reported without a stack trace", async () => {
    setInputs({ task: "Add CSV export" });
    await runAction(deps({ createScorer: failing(new TypeError("boom")) }));
    const message = String(core.setFailed.mock.calls[0]![0]);
    expect(message).toBe(
      "task-scorer failed unexpectedly (boom). Run the job again; if it keeps failing, open an issue with this message.",
    );
  });

  it("commenting without a token says how to fix it", async () => {
    setInputs({ "github-token": "" });
    const result = await runAction(deps({ context: issuesEvent() }));
    expect(result.message).toBe(
      "The `github-token` input is empty, so the report comment cannot be written: leave it unset (it defaults to `${{ github.token }}`), or set `comment: false` and leave the label inputs empty.",
    );
    expect(outputs().report).toBeDefined();
  });

  it.each([
    [
      403,
      "The token cannot write comments: add `permissions: issues: write` (and `pull-requests: write` for PRs) to the workflow.",
    ],
    [
      401,
      "GitHub refused the token (401 Bad credentials): leave `github-token` unset to use the workflow's token, or pass a valid one.",
    ],
    [
      500,
      "GitHub answered 500 when trying to write comments on the issue or pull request; run the job again, or set `comment: false` and leave the label inputs empty to skip writing to GitHub.",
    ],
  ])("GitHub answering %i to the comment gives an actionable message", async (status, message) => {
    github.failWith("POST", /\/comments$/, status);
    setInputs({ "github-token": TOKEN });
    const result = await runAction(deps({ context: issuesEvent() }));
    expect(core.setFailed).toHaveBeenCalledWith(message);
    expect(result.report).toBeDefined();
  });

  it("a 403 on labels asks for the same permissions", async () => {
    github.failWith("POST", /\/labels$/, 403);
    setInputs({ "github-token": TOKEN, comment: "false", "label-rejected": "not approved", task: "Misc" });
    await runAction(deps({ context: issuesEvent() }));
    expect(core.setFailed).toHaveBeenCalledWith(
      "The token cannot set labels: add `permissions: issues: write` (and `pull-requests: write` for PRs) to the workflow.",
    );
  });

  it("fail-on-reject fails after the outputs, summary and comment, naming the failed conditions", async () => {
    setInputs({ task: "Misc", "fail-on-reject": "true", "github-token": TOKEN });
    const result = await runAction(deps({ context: issuesEvent() }));
    expect(outputs().approved).toBe("false");
    expect(github.commentsOn("Codertocat/Hello-World#1")).toHaveLength(1);
    expect(summaries).toHaveLength(1);
    expect(result.message).toMatch(
      /^The task is not approved \(average \d.* is below 7; .*\), and `fail-on-reject` is true\.$/,
    );
    expect(core.setFailed.mock.invocationCallOrder[0]).toBeGreaterThan(
      Math.max(...core.setOutput.mock.invocationCallOrder),
    );
  });

  it("an approved task passes with fail-on-reject", async () => {
    setInputs({
      task: "Misc",
      "fail-on-reject": "true",
      comment: "false",
      "min-average": "1",
      "min-score": "1",
    });
    setInputs({ "min-supporters": "0" });
    const result = await runAction(deps());
    expect(result.ok).toBe(true);
    expect(core.setFailed).not.toHaveBeenCalled();
  });
});

describe("runAction: comment and labels", () => {
  it("edits the report comment the GitHub App wrote, and leaves other comments alone", async () => {
    const other = github.addComment("Codertocat/Hello-World#1", "LGTM");
    const app = github.addComment("Codertocat/Hello-World#1", `${REPORT_MARKER}\nold report from the App`);
    setInputs({ "github-token": TOKEN });
    const result = await runAction(deps({ context: issuesEvent() }));
    expect(result.comment).toMatchObject({ action: "updated", commentId: app.id });
    const comments = github.commentsOn("Codertocat/Hello-World#1");
    expect(comments.map((c) => c.id)).toEqual([other.id, app.id]);
    expect(comments[1]!.body).toBe(summaries[0]);
    expect(core.info).toHaveBeenCalledWith(expect.stringMatching(/^Report comment updated on issue #1/));
  });

  it("swaps the verdict labels, touching only the two configured ones", async () => {
    github.issueLabels.set("Codertocat/Hello-World#1", ["bug", "approved"]);
    setInputs({
      "github-token": TOKEN,
      comment: "false",
      task: "Misc",
      "label-approved": "approved",
      "label-rejected": "rejected",
    });
    const result = await runAction(deps({ context: issuesEvent() }));
    expect(result.ok).toBe(true);
    expect(github.issueLabels.get("Codertocat/Hello-World#1")).toEqual(["bug", "rejected"]);
  });

  it("does not score the event of its own report comment (no loop with a token that triggers workflows)", async () => {
    setInputs({ "github-token": TOKEN });
    const payload = examplePayload("issue_comment", "created", (p) => {
      p.comment.body = `${REPORT_MARKER}\n### Task score: 5 / 10`;
    });
    const result = await runAction(deps({ context: { eventName: "issue_comment", payload } }));
    expect(result).toEqual({ ok: true });
    expect(core.notice).toHaveBeenCalledWith(
      "Skipped: this `issue_comment` event is the report comment itself; nothing was scored.",
    );
    expect(core.setOutput).not.toHaveBeenCalled();
    expect(github.requests).toEqual([]);
  });

  it("skips comment and labels with one notice when the event has no issue or pull request", async () => {
    setInputs({ task: "Add CSV export", "github-token": TOKEN, "label-approved": "approved" });
    const result = await runAction(deps({ context: { eventName: "push", payload: {} } }));
    expect(result.ok).toBe(true);
    expect(core.notice).toHaveBeenCalledWith(
      "Skipped the report comment and the approval labels: this `push` event has no issue or pull request. The report is in the step's outputs and job summary.",
    );
    expect(github.requests).toEqual([]);
  });
});

describe("runAction: .github/task-scorer.yml", () => {
  const REPO = "Codertocat/Hello-World";
  const BUG_BODY =
    "Steps to reproduce:\n1. Open a document\n2. Press save\n\nExpected: saved. Actual: the app crashes with TypeError: cannot read properties of undefined.";
  function pullRequestEvent(number = 2) {
    return {
      eventName: "pull_request",
      payload: examplePayload("pull_request", "opened", (p) => {
        p.pull_request.number = number;
        p.pull_request.title = "Crash when saving file";
        p.pull_request.body = BUG_BODY;
        p.pull_request.labels = [];
      }),
    };
  }

  it("honours `output` from the file: labels and a check run on a pull request, no comment", async () => {
    github.configFiles.set(REPO, "output: [labels, check]\nkind-labels:\n  bug: 'Type: Bug'\n");
    setInputs({ "github-token": TOKEN });
    const event = pullRequestEvent();
    const result = await runAction(deps({ context: event }));
    expect(result.ok).toBe(true);
    expect(github.comments).toEqual([]);
    expect(github.issueLabels.get(`${REPO}#2`)).toEqual(["Type: Bug"]);
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      name: "task-scorer",
      head_sha: event.payload.pull_request.head.sha,
      status: "completed",
      output: { title: expect.stringMatching(/^Task score .* \/ 10 · (meets|below) the approval bar$/) },
    });
    expect(["success", "neutral"]).toContain(github.checkRuns[0]!.conclusion);
    // Read from the default branch through the contents API, with the workflow's token.
    const read = github.requests.find((r) =>
      decodeURIComponent(r.path).endsWith("/contents/.github/task-scorer.yml"),
    )!;
    expect(read.authorization).toBe(`token ${TOKEN}`);
  });

  it("explicit inputs win over the file: `comment: false` and `output`", async () => {
    github.configFiles.set(REPO, "output: [comment, labels]\n");
    setInputs({ "github-token": TOKEN, comment: "false" });
    await runAction(deps({ context: pullRequestEvent() }));
    expect(github.comments).toEqual([]);
    expect(github.issueLabels.get(`${REPO}#2`)).toEqual(["bug"]);

    github.reset();
    inputValues.clear();
    github.configFiles.set(REPO, "output: [labels]\n");
    setInputs({ "github-token": TOKEN, output: "comment" });
    await runAction(deps({ context: pullRequestEvent() }));
    expect(github.commentsOn(`${REPO}#2`)).toHaveLength(1);
    expect(github.issueLabels.get(`${REPO}#2`)).toBeUndefined();
  });

  it("`project` is skipped: a workflow token cannot reach Projects v2, and the step summary says so", async () => {
    github.configFiles.set(REPO, "output: [project]\nproject: https://github.com/orgs/acme/projects/3\n");
    github.addProject("organization", "acme", 3);
    setInputs({ "github-token": TOKEN });
    const result = await runAction(deps({ context: pullRequestEvent() }));
    expect(result.ok).toBe(true);
    expect(core.notice).toHaveBeenCalledWith(
      expect.stringContaining("A workflow token cannot reach Projects v2"),
    );
    expect(summaries.join("\n")).toContain("A workflow token cannot reach Projects v2");
    expect(github.graphqlCalls).toEqual([]);
    expect(github.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("`output: none` in the file writes nothing on GitHub", async () => {
    github.configFiles.set(REPO, "output: none\nlabels:\n  approved: ok\n  rejected: nope\n");
    setInputs({ "github-token": TOKEN });
    const result = await runAction(deps({ context: pullRequestEvent() }));
    expect(result.ok).toBe(true);
    expect(github.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a check run the token may not create fails the step with the permission to add", async () => {
    github.configFiles.set(REPO, "output: [check]\n");
    github.failWith("POST", /\/check-runs$/, 403);
    setInputs({ "github-token": TOKEN });
    const result = await runAction(deps({ context: pullRequestEvent() }));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/add `permissions: checks: write`/);
  });

  it("without a file, the inputs work as before (the comment, the verdict labels)", async () => {
    setInputs({ "github-token": TOKEN, "label-approved": "ok", "label-rejected": "nope" });
    await runAction(deps({ context: pullRequestEvent() }));
    expect(github.commentsOn(`${REPO}#2`)).toHaveLength(1);
    expect(github.issueLabels.get(`${REPO}#2`)).toHaveLength(1);
    expect(github.checkRuns).toEqual([]);
  });
});
