import { afterEach, describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { REPLY_MARKER } from "../../src/app/commands/command.js";
import { forgetOutputProblems } from "../../src/app/outputs.js";
import { parseRepoConfig } from "../../src/repo-config/repo-config.schema.js";
import { resolveOutputs } from "../../src/repo-config/resolve-outputs.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { PERSONA_IDS } from "../../src/core/personas.js";
import { forgetProjects } from "../../src/github/project-v2.js";
import { headShaOf, nodeIdOf } from "../helpers/fake-github.js";
import {
  appWithStandIn,
  capturingLogger,
  deliver,
  payload,
  installationCreated,
} from "../helpers/app-harness.js";

/**
 * `output` in .github/task-scorer.yml, end to end: the App (and its silent backfill) against the stand-in
 * GitHub on loopback, REST for labels and check runs, GraphQL for the Projects v2 board.
 */
const app = appWithStandIn();
const { github } = app;
/** The service the test started (closed after it by the harness). */
let service: Service;
// The process's own memory of boards and of problems already told, forgotten after each test.
afterEach(() => {
  forgetProjects();
  forgetOutputProblems();
});

const REPO = "acme/widgets";
const BUG = {
  title: "Crash when saving file",
  body: "Steps to reproduce:\n1. Open a document\n2. Press save\n\nExpected: saved. Actual: the app crashes with TypeError: cannot read properties of undefined.",
};

function start(env: Record<string, string> = {}, logger?: Parameters<typeof app.start>[2]) {
  return app.start(env, undefined, logger);
}

/** A pull request event by a person, on REPO, with its head commit (and the previous one, for `synchronize`). */
function pullRequestEvent(number: number, action: string, sha: string, before?: string) {
  return payload("pull_request", action, (p) => {
    inRepo(p);
    p.pull_request.number = number;
    p.pull_request.title = "Add CSV export to the reports page";
    p.pull_request.body = "Users copy tables by hand. Adds an Export CSV button.";
    p.pull_request.draft = false;
    p.pull_request.head.sha = sha;
    if (before) p.before = before;
    p.sender.type = "User";
  });
}

function inRepo(p: any) {
  p.repository.owner.login = "acme";
  p.repository.name = "widgets";
  p.repository.full_name = REPO;
}

function issueOpened(number: number, text = BUG) {
  return payload("issues", "opened", (p) => {
    inRepo(p);
    p.issue.number = number;
    p.issue.title = text.title;
    p.issue.body = text.body;
    p.issue.labels = [];
    p.issue.node_id = nodeIdOf(REPO, number);
  });
}

async function settle(): Promise<void> {
  await service.queue!.drain();
}

const writes = () => github.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/app/"));

describe("output in .github/task-scorer.yml", () => {
  it("combines with the older keys: unset keeps the comment and named labels; comment: false always wins", () => {
    const unset = resolveOutputs(parseRepoConfig({ labels: { approved: "ok" } }).config);
    expect(unset).toMatchObject({
      comment: true,
      approvalLabels: { approved: "ok" },
      kindLabels: false,
      check: false,
    });
    expect(resolveOutputs(parseRepoConfig({ output: ["labels"] }).config)).toMatchObject({
      comment: false,
      kindLabels: true,
      needsHumanLabel: "needs-human",
    });
    expect(resolveOutputs(parseRepoConfig({ output: ["comment"], comment: false }).config).comment).toBe(
      false,
    );
    expect(resolveOutputs(parseRepoConfig({ output: "none" }).config)).toMatchObject({
      comment: false,
      kindLabels: false,
      project: undefined,
      check: false,
    });
    // An unreadable `output` fails closed to the quiet value.
    const bad = parseRepoConfig({ output: ["comment", "tweet"] });
    expect(bad.failedClosed).toBe(true);
    expect(bad.config.output).toEqual([]);
    expect(bad.diagnostics[0]!.message).toMatch(/`output` could not be read .*nothing is written on GitHub/);
    // A board without the output, or the output without a board, is told to maintainers.
    expect(
      parseRepoConfig({ project: "https://github.com/orgs/acme/projects/3" }).diagnostics[0]!.message,
    ).toMatch(/`output` does not list `project`/);
    expect(parseRepoConfig({ output: ["project"] }).diagnostics[0]!.message).toMatch(/names no board/);
    expect(parseRepoConfig({ project: "https://github.com/acme/widgets" }).diagnostics[0]!.message).toMatch(
      /Projects v2 board/,
    );
  });

  it("labels: writes the kind label (the repository's own name from kind-labels) and needs-human, no comment", async () => {
    github.configFiles.set(REPO, "output: [labels]\nkind-labels:\n  bug: 'Type: Bug'\n");
    service = await start();
    await deliver(service, "issues", issueOpened(11));
    await deliver(
      service,
      "issues",
      issueOpened(12, { title: "Totals differ between the report and the dashboard", body: "" }),
    );
    await settle();

    expect(github.issueLabels.get(`${REPO}#11`)).toEqual(["Type: Bug"]);
    // The reader is 37% sure this is a question (a bug? a question?): under every bar, so no kind label, and a
    // person should decide.
    expect(github.issueLabels.get(`${REPO}#12`)).toEqual(["needs-human"]);
    expect(github.repoLabels.get(REPO)?.has("Type: Bug")).toBe(true);
    expect(github.comments).toHaveLength(0);
    expect(github.checkRuns).toHaveLength(0);
    expect(github.graphqlCalls).toHaveLength(0);
  });

  it("labels: a kind label a person already set is left alone, and no second one is added", async () => {
    github.configFiles.set(REPO, "output: [comment, labels]\n");
    service = await start();
    const body = issueOpened(13);
    body.issue.labels = [{ name: "enhancement" }];
    await deliver(service, "issues", body);
    await settle();
    expect(github.issueLabels.get(`${REPO}#13`)).toBeUndefined();
    expect(github.commentsOn(`${REPO}#13`)).toHaveLength(1);
  });

  it("project: adds the issue to the board, creates the number field once, and sets the score", async () => {
    github.configFiles.set(
      REPO,
      "output: [comment, project]\nproject: https://github.com/orgs/acme/projects/3\n",
    );
    const board = github.addProject("organization", "acme", 3);
    service = await start();
    await deliver(service, "issues", issueOpened(21));
    await deliver(
      service,
      "issues",
      issueOpened(22, { title: "Add CSV export", body: "Twelve customers asked." }),
    );
    await settle();

    const field = board.fields.find((f) => f.name === "Task score");
    expect(field).toMatchObject({ dataType: "NUMBER" });
    const mutations = github.graphqlCalls
      .map((c) => /mutation[^{]*\{\s*(\w+)/.exec(c.query)?.[1])
      .filter(Boolean);
    expect(mutations.filter((m) => m === "createProjectV2Field")).toHaveLength(1);
    expect(mutations.filter((m) => m === "addProjectV2ItemById")).toHaveLength(2);
    expect(mutations.filter((m) => m === "updateProjectV2ItemFieldValue")).toHaveLength(2);
    const item = board.items.get(nodeIdOf(REPO, 21))!;
    const score = item.values.get(field!.id)!;
    expect(score).toBeGreaterThanOrEqual(1);
    expect(github.commentsOn(`${REPO}#21`)[0]!.body).toContain(
      `Task score ${Number.isInteger(score) ? score : score.toFixed(1)} / 10`,
    );
    // GHE serves GraphQL at /api/graphql, not under /api/v3.
    expect(github.requests.filter((r) => r.path === "/api/graphql").length).toBeGreaterThan(0);
  });

  it("project: a board it cannot reach is a diagnostic for maintainers (logged once), never an error on the issue", async () => {
    github.configFiles.set(
      REPO,
      "output: [comment, project]\nproject: https://github.com/orgs/acme/projects/9\n",
    );
    github.roles.set(`${REPO}:maintainer`, "write");
    const { logger, lines } = capturingLogger();
    service = await start({ LOG_LEVEL: "debug" }, logger);
    await deliver(service, "issues", issueOpened(31));
    await deliver(service, "issues", issueOpened(32));
    await settle();

    // The contributor's issues get their report and nothing about the board.
    for (const n of [31, 32]) {
      const comments = github.commentsOn(`${REPO}#${n}`);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain(REPORT_MARKER);
      expect(comments[0]!.body).not.toMatch(/project/i);
    }
    const problems = lines.filter((l) => l.msg === "output problem");
    expect(problems).toHaveLength(1);
    expect(problems[0]!.problem).toMatch(/organisation acme's project 9 could not be found \(NOT_FOUND\)/);
    expect(lines.some((l) => l.level >= 50)).toBe(false);

    // A maintainer's `/score help` lists it, without a URL.
    await deliver(
      service,
      "issue_comment",
      payload("issue_comment", "created", (p) => {
        inRepo(p);
        p.issue.number = 31;
        p.issue.pull_request = undefined;
        p.comment.body = "/score help";
        p.comment.user.login = "maintainer";
        p.sender.type = "User";
      }),
    );
    await settle();
    const reply = github.commentsOn(`${REPO}#31`).find((c) => c.body.includes(REPLY_MARKER))!;
    expect(reply.body).toMatch(/`project`: organisation acme's project 9 could not be found/);
    expect(reply.body).not.toMatch(/https?:\/\//);
  });

  it("project: GitHub refusing the App (403) is a diagnostic too", async () => {
    github.configFiles.set(REPO, "output: [project]\nproject: https://github.com/orgs/acme/projects/3\n");
    github.addProject("organization", "acme", 3);
    github.failWith("POST", /graphql$/, 403);
    const { logger, lines } = capturingLogger();
    service = await start({ LOG_LEVEL: "debug" }, logger);
    await deliver(service, "issues", issueOpened(33));
    await settle();
    expect(lines.find((l) => l.msg === "output problem")?.problem).toMatch(
      /GitHub answered 403.*Organization projects permission/,
    );
    expect(github.comments).toHaveLength(0);
  });

  it("check: a completed check run on the pull request's head commit, the score as its title", async () => {
    github.configFiles.set(REPO, "output: [check]\n");
    service = await start();
    await deliver(
      service,
      "pull_request",
      payload("pull_request", "opened", (p) => {
        inRepo(p);
        p.pull_request.number = 41;
        p.pull_request.title = "Add CSV export to the reports page";
        p.pull_request.body = "Users copy tables by hand. Adds an Export CSV button.";
        p.pull_request.head.sha = headShaOf(41);
      }),
    );
    await settle();
    expect(github.checkRuns).toHaveLength(1);
    const run = github.checkRuns[0] as any;
    expect(run).toMatchObject({
      repository: REPO,
      name: "task-scorer",
      head_sha: headShaOf(41),
      status: "completed",
    });
    expect(["success", "neutral"]).toContain(run.conclusion);
    expect(run.output.title).toMatch(/^Task score \d+(\.\d)? \/ 10 · (meets|below) the approval bar$/);
    expect(run.output.summary).toContain("### Task score");
    expect(github.comments).toHaveLength(0);
  });

  it("check: new commits on the pull request get the check run too; the comment follows the change, the labels are not written again", async () => {
    github.configFiles.set(REPO, "output: [comment, check, labels]\n");
    service = await start();
    const pr = (action: string, sha: string) => pullRequestEvent(43, action, sha);
    await deliver(service, "pull_request", pr("opened", headShaOf(43)));
    await settle();
    expect(github.comments).toHaveLength(1);
    const labelWrites = () => writes().filter((r) => r.path.includes("/labels"));
    const labelled = labelWrites().length;
    const pushed = "0123456789abcdef0123456789abcdef01234567";
    await deliver(service, "pull_request", pr("synchronize", pushed));
    await settle();
    expect((github.checkRuns as any[]).map((r) => r.head_sha)).toEqual([headShaOf(43), pushed]);
    expect((github.checkRuns[1] as any).output.title).toBe((github.checkRuns[0] as any).output.title);
    // One comment, edited in place (the change is read again); no label written again.
    expect(github.comments).toHaveLength(1);
    expect(writes().filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(labelWrites()).toHaveLength(labelled);
  });

  it("check: new commits keep the text's verdicts (a model's next verdict may differ); the check and the comment agree", async () => {
    github.configFiles.set(REPO, "output: [comment, check]\n");
    // A scorer whose verdict changes with every call, as a model's can.
    let calls = 0;
    service = await app.start(
      {},
      {
        description: "varying",
        scorer: {
          name: "varying",
          score: async () => {
            calls++;
            return PERSONA_IDS.map((persona) => ({
              persona,
              score: calls === 1 ? 8 : 3,
              reasoning: `call ${calls}`,
            }));
          },
        },
      },
    );
    const pr = (action: string, sha: string, before?: string) => pullRequestEvent(45, action, sha, before);
    await deliver(service, "pull_request", pr("opened", headShaOf(45)));
    await settle();
    const pushed = "89abcdef0123456789abcdef0123456789abcdef";
    await deliver(service, "pull_request", pr("synchronize", pushed, headShaOf(45)));
    await settle();
    const runs = github.checkRuns as any[];
    expect(runs.map((r) => r.head_sha)).toEqual([headShaOf(45), pushed]);
    expect(runs[1].output.title).toBe(runs[0].output.title);
    expect(runs[1].conclusion).toBe(runs[0].conclusion);
    expect(runs[0].output.title).toMatch(/^Task score 8 \/ 10/);
    expect(calls).toBe(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain("call 1");

    // The text edited: scored again, and both follow.
    await deliver(
      service,
      "pull_request",
      payload("pull_request", "opened", (p) => {
        p.action = "edited";
        inRepo(p);
        p.pull_request.number = 45;
        p.pull_request.title = "Add CSV and JSON export to the reports page";
        p.pull_request.body = "Users copy tables by hand.";
        p.pull_request.draft = false;
        p.pull_request.head.sha = pushed;
        p.changes = { title: { from: "Add CSV export to the reports page" } };
        p.sender.type = "User";
      }),
    );
    await settle();
    expect(calls).toBe(2);
    expect(runs.at(-1).output.title).toMatch(/^Task score 3 \/ 10/);
    expect(github.comments[0]!.body).toContain("call 2");
  });

  it("check: without `comment` or `check` in output, new commits write nothing", async () => {
    github.configFiles.set(REPO, "output: [labels]\n");
    service = await start();
    await deliver(
      service,
      "pull_request",
      payload("pull_request", "synchronize", (p) => {
        inRepo(p);
        p.pull_request.number = 44;
        p.pull_request.draft = false;
        p.sender.type = "User";
      }),
    );
    await settle();
    expect(writes()).toEqual([]);
  });

  it("check: on `/score` under a pull request, the head commit is looked up", async () => {
    github.configFiles.set(REPO, "output: [check]\n");
    github.repoIssues.set(REPO, [{ number: 42, title: "Add CSV export", body: "", pull_request: true }]);
    github.roles.set(`${REPO}:maintainer`, "write");
    service = await start();
    await deliver(
      service,
      "issue_comment",
      payload("issue_comment", "created", (p) => {
        inRepo(p);
        p.issue.number = 42;
        p.issue.pull_request = { url: "" };
        p.comment.body = "/score";
        p.comment.user.login = "maintainer";
        p.sender.type = "User";
      }),
    );
    await settle();
    expect(github.checkRuns.map((r) => r.head_sha)).toEqual([headShaOf(42)]);
  });

  it("check: only on pull requests; an issue gets none", async () => {
    github.configFiles.set(REPO, "output: [check]\n");
    service = await start();
    await deliver(service, "issues", issueOpened(43));
    await settle();
    expect(github.checkRuns).toHaveLength(0);
  });

  it("output: none writes nothing on GitHub, even with labels named", async () => {
    github.configFiles.set(
      REPO,
      "output: none\nlabels:\n  approved: ok\n  rejected: nope\nproject: https://github.com/orgs/acme/projects/3\n",
    );
    github.addProject("organization", "acme", 3);
    service = await start();
    await deliver(service, "issues", issueOpened(51));
    await settle();
    expect(writes()).toEqual([]);
  });
});

describe("outputs in the silent backfill", () => {
  const installed = () => installationCreated([REPO]);

  it("applies labels and the board to old issues, never a comment or a check run", async () => {
    github.configFiles.set(
      REPO,
      "output: [comment, labels, project, check]\nproject: https://github.com/orgs/acme/projects/3\n",
    );
    const board = github.addProject("organization", "acme", 3);
    github.repoIssues.set(REPO, [
      { number: 1, ...BUG },
      {
        number: 2,
        title: "How do I configure the proxy?",
        body: "How do I configure this? I could not find it.",
      },
      { number: 3, title: "Bump lodash", body: "Automated.", pull_request: true },
    ]);
    service = await start({ DATA_DIR: "memory://" });
    await deliver(service, "installation", installed());
    for (let i = 0; i < 400 && (await service.backlogStore!.hashes(REPO, [1, 2])).size < 2; i++)
      await new Promise((r) => setTimeout(r, 25));
    await service.backfill!.idle();

    expect(github.comments).toHaveLength(0);
    expect(github.checkRuns).toHaveLength(0);
    expect(github.issueLabels.get(`${REPO}#1`)).toEqual(["bug"]);
    expect(github.issueLabels.get(`${REPO}#2`)).toEqual(["question"]);
    expect(github.issueLabels.get(`${REPO}#3`)).toBeUndefined();
    expect([...board.items.keys()].sort()).toEqual([nodeIdOf(REPO, 1), nodeIdOf(REPO, 2)]);
    // The board was looked up once for the whole run.
    expect(github.graphqlCalls.filter((c) => c.query.includes("projectV2(number")).length).toBe(1);
  });

  it("pauses at GitHub's rate limit while writing, and writes the rest when it resumes", async () => {
    github.configFiles.set(REPO, "output: [labels]\n");
    github.repoIssues.set(REPO, [{ number: 1, ...BUG }]);
    // The first label write answers that the hour's allowance is nearly used.
    github.faults.push({
      method: "POST",
      path: /\/labels$/,
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000)) },
    });
    service = await start({ DATA_DIR: "memory://" });
    await deliver(service, "installation", installed());
    for (let i = 0; i < 400 && !github.issueLabels.get(`${REPO}#1`); i++) {
      await new Promise((r) => setTimeout(r, 50));
      service.backfill!.wake();
    }
    expect(github.issueLabels.get(`${REPO}#1`)).toEqual(["bug"]);
    expect(github.comments).toHaveLength(0);
  });
});
