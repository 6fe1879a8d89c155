import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { ScorerUnavailableError } from "../../src/core/errors.js";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import {
  INSTALLATION_ID,
  capturingLogger,
  deliver,
  payload,
  sign,
  startService,
} from "../helpers/app-harness.js";

const API = "https://api.github.com";
const OWNER = "Codertocat";
const REPO = "Hello-World";

function github() {
  return nock(API);
}
function mockToken() {
  github()
    .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
    .optionally()
    .reply(201, {
      token: "ghs_test_installation_token",
      expires_at: "2099-01-01T00:00:00Z",
      permissions: { issues: "write" },
    });
}
const configPath = (repo: string) =>
  new RegExp(`^/repos/${OWNER}/${repo.replace(".", "\\.")}/contents/\\.github(%2F|/)task-scorer\\.yml`);
function mockConfig(yaml?: string) {
  if (yaml !== undefined) {
    github().get(configPath(REPO)).reply(200, yaml, { "content-type": "text/plain; charset=utf-8" });
  } else {
    github().get(configPath(REPO)).reply(404, { message: "Not Found" });
    github().get(configPath(".github")).reply(404, { message: "Not Found" });
  }
}
/** The issue has no report yet: expect one to be created (then found by the duplicate check). */
function expectNewComment(number: number): () => string {
  let posted = "";
  mockComments(number, []);
  github()
    .post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`, (b) => {
      posted = b.body;
      return true;
    })
    .reply(201, { id: 1001 });
  mockComments(number, [{ id: 1001, body: REPORT_MARKER }]);
  return () => posted;
}
function mockComments(number: number, comments: { id: number; body: string }[]) {
  github().get(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).query(true).reply(200, comments);
}

let service: Service;
beforeAll(() => {
  nock.disableNetConnect();
});
afterAll(() => {
  nock.enableNetConnect();
});
beforeEach(async () => {
  service = await startService();
  mockToken();
});
afterEach(async () => {
  // A job that failed here (an unmocked GitHub call, say) fails the test: the App harness checks it at close.
  let pending: string[] = [];
  try {
    await service.close();
  } finally {
    pending = nock.pendingMocks();
    nock.cleanAll();
  }
  expect(pending).toEqual([]);
});

async function settle() {
  await service.queue!.drain();
}

describe("GitHub App: new issues get one report comment", () => {
  it("issues.opened: scores the issue and posts one comment with the five personas", async () => {
    const body = payload("issues", "opened");
    const number = body.issue.number;
    mockConfig();
    const posted = expectNewComment(number);

    const res = await deliver(service, "issues", body);
    expect(res.statusCode).toBeLessThan(300);
    await settle();

    expect(posted().startsWith(REPORT_MARKER)).toBe(true);
    for (const name of [
      "Revenue Expert",
      "Technical Architect",
      "UX Designer",
      "Product Manager",
      "Marketing Strategist",
    ]) {
      expect(posted()).toContain(name);
    }
    expect(posted()).toMatch(/Task score [\d.]+ \/ 10 · (meets|below) the approval bar/);
    expect(posted()).toContain("task-scorer (offline)");
  });

  it("issues.edited with a new body edits the same comment instead of adding one", async () => {
    const body = payload("issues", "opened", (p) => {
      p.action = "edited";
      p.changes = { body: { from: "old text" } };
      p.issue.body = "Reported by 300 users this week: the word is misspelt on the login page.";
    });
    const number = body.issue.number;
    mockConfig();
    mockComments(number, [
      { id: 5, body: "a human comment" },
      { id: 7, body: `${REPORT_MARKER}\nold report` },
    ]);
    let edited = "";
    github()
      .patch(`/repos/${OWNER}/${REPO}/issues/comments/7`, (b) => {
        edited = b.body;
        return true;
      })
      .reply(200, { id: 7 });

    await deliver(service, "issues", body);
    await settle();
    // The report reads the new body (the judge credits its numbers about the people affected).
    expect(edited).toContain(REPORT_MARKER);
    expect(edited).not.toContain("old report");
    expect(edited).toContain("Demand: “Reported by 300 users this week");
  });

  it("issues.edited that changed neither title nor body does nothing", async () => {
    const body = payload("issues", "opened", (p) => {
      p.action = "edited";
      p.changes = { labels: {} };
    });
    const res = await deliver(service, "issues", body);
    expect(res.statusCode).toBeLessThan(300);
    await settle();
    expect(service.queue!.stats.queued).toBe(0);
  });

  it("a redelivered event (same delivery id) is processed once, and the same text delivered again is not re-posted", async () => {
    const body = payload("issues", "opened");
    const number = body.issue.number;
    mockConfig();
    mockComments(number, []);
    github().post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).once().reply(201, { id: 1001 });
    mockComments(number, [{ id: 1001, body: REPORT_MARKER }]);

    await deliver(service, "issues", body, "same-id");
    await settle();
    await deliver(service, "issues", body, "same-id");
    await deliver(
      service,
      "issues",
      payload("issues", "opened", (p) => (p.action = "reopened")),
      "another-id",
    );
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("two events racing for the same issue still end with one comment", async () => {
    const first = payload("issues", "opened");
    const second = payload("issues", "opened", (p) => {
      p.action = "edited";
      p.changes = { title: { from: "x" } };
      p.issue.title = "Add dark mode";
    });
    const number = first.issue.number;
    // First job: no comment yet, creates one. Second job (serialised after it): finds it and edits it.
    mockConfig();
    mockComments(number, []);
    github().post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).once().reply(201, { id: 1001 });
    mockComments(number, [{ id: 1001, body: REPORT_MARKER }]);
    mockConfig();
    mockComments(number, [{ id: 1001, body: REPORT_MARKER }]);
    github().patch(`/repos/${OWNER}/${REPO}/issues/comments/1001`).reply(200, { id: 1001 });

    await Promise.all([deliver(service, "issues", first), deliver(service, "issues", second)]);
    await settle();
  });

  it("ignores events sent by bots", async () => {
    const body = payload("issues", "opened", (p) => {
      p.sender = { ...p.sender, login: "dependabot[bot]", type: "Bot" };
    });
    await deliver(service, "issues", body);
    await settle();
    expect(service.queue!.stats.queued).toBe(0);
  });
});

describe("GitHub App: pull requests", () => {
  it("pull_request.opened posts the report on the PR, with the change GitHub lists", async () => {
    const body = payload("pull_request", "opened");
    mockConfig();
    github()
      .get(`/repos/${OWNER}/${REPO}/pulls/${body.pull_request.number}/files`)
      .query({ per_page: "100", page: "1" })
      .reply(200, [{ filename: "README.md", status: "modified", additions: 1, deletions: 1, patch: "@@" }]);
    const posted = expectNewComment(body.pull_request.number);
    await deliver(service, "pull_request", body);
    await settle();
    expect(posted().startsWith(REPORT_MARKER)).toBe(true);
    expect(posted()).toContain("**Change:** +1 −1 in 1 file · no test files · size XS");
  });

  it("skips draft pull requests by default", async () => {
    const body = payload("pull_request", "opened", (p) => (p.pull_request.draft = true));
    mockConfig();
    await deliver(service, "pull_request", body);
    await settle();
  });
});

describe("GitHub App: /score command", () => {
  function scoreComment(login: string, text = "/score") {
    return payload("issue_comment", "created", (p) => {
      p.comment.body = text;
      p.comment.user = { ...p.comment.user, login, type: "User" };
      p.sender = { ...p.sender, login, type: "User" };
    });
  }
  function expectPermission(login: string, permission: string, role: string) {
    github()
      .get(`/repos/${OWNER}/${REPO}/collaborators/${login}/permission`)
      .reply(200, { permission, role_name: role, user: { login } });
  }
  function expectReaction(commentId: number, content: string) {
    github()
      .post(`/repos/${OWNER}/${REPO}/issues/comments/${commentId}/reactions`, { content })
      .reply(201, { id: 1, content });
  }

  it("from someone without write or triage access: a 😕 reaction and no comment (the permission is checked, not just the text)", async () => {
    const body = scoreComment("outsider");
    expectPermission("outsider", "read", "read");
    expectReaction(body.comment.id, "confused");
    await deliver(service, "issue_comment", body);
    await settle();
    // No other request was made: nock would have refused it, and pending mocks are checked after each test.
  });

  it("re-scores for a maintainer, even when the text has not changed, with a 👀 reaction as the receipt", async () => {
    const body = scoreComment("maintainer");
    expectPermission("maintainer", "write", "maintain");
    expectReaction(body.comment.id, "eyes");
    mockConfig();
    mockComments(body.issue.number, [{ id: 3, body: `${REPORT_MARKER}\nold` }]);
    github().patch(`/repos/${OWNER}/${REPO}/issues/comments/3`).reply(200, { id: 3 });
    await deliver(service, "issue_comment", body);
    await settle();
  });

  it("`/score help` answers a maintainer with a comment explaining the commands", async () => {
    const body = scoreComment("maintainer", "/score help");
    expectPermission("maintainer", "write", "write");
    expectReaction(body.comment.id, "eyes");
    mockConfig("trigger: command\n");
    let reply = "";
    github()
      .post(`/repos/${OWNER}/${REPO}/issues/${body.issue.number}/comments`, (b) => {
        reply = b.body;
        return true;
      })
      .reply(201, { id: 9 });
    await deliver(service, "issue_comment", body);
    await settle();
    expect(reply).toContain("`/score`");
    expect(reply).toContain("`/score help`");
    // Every command the App answers is listed, not only the first two.
    expect(reply).toContain("`/score backlog`");
    expect(reply).toContain("`/score learn`");
    expect(reply).toContain("scored only on `/score`");
    expect(reply).not.toContain(REPORT_MARKER);
  });

  it("tells the maintainer who asked about configuration problems, with line and column and no URL", async () => {
    const body = scoreComment("maintainer");
    expectPermission("maintainer", "admin", "admin");
    expectReaction(body.comment.id, "eyes");
    const yaml = "drafts: sometimes\n";
    mockConfig(yaml);
    mockConfig(yaml);
    mockComments(body.issue.number, [{ id: 3, body: `${REPORT_MARKER}\nold` }]);
    let report = "";
    github()
      .patch(`/repos/${OWNER}/${REPO}/issues/comments/3`, (b) => {
        report = b.body;
        return true;
      })
      .reply(200, { id: 3 });
    let reply = "";
    github()
      .post(`/repos/${OWNER}/${REPO}/issues/${body.issue.number}/comments`, (b) => {
        reply = b.body;
        return true;
      })
      .reply(201, { id: 9 });
    await deliver(service, "issue_comment", body);
    await settle();
    expect(report).not.toContain("drafts");
    expect(reply).toContain(".github/task-scorer.yml line 1, column 1: `drafts` ignored (");
    expect(reply).not.toMatch(/https?:/);
  });

  it("ignores comments that merely mention /score in a sentence", async () => {
    const body = payload("issue_comment", "created", (p) => (p.comment.body = "what does /score do?"));
    await deliver(service, "issue_comment", body);
    await settle();
    expect(service.queue!.stats.queued).toBe(0);
  });
});

describe("GitHub App: repository configuration and labels", () => {
  it("adds the configured label for the verdict, creating it when missing", async () => {
    const body = payload("issues", "opened");
    const number = body.issue.number;
    mockConfig("labels:\n  approved: 'score: approved'\n  rejected: 'score: rejected'\n");
    mockComments(number, []);
    github().post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).reply(201, { id: 1 });
    mockComments(number, [{ id: 1, body: REPORT_MARKER }]);
    github().get(`/repos/${OWNER}/${REPO}/labels/score%3A%20rejected`).reply(404);
    let created: any;
    github()
      .post(`/repos/${OWNER}/${REPO}/labels`, (b) => {
        created = b;
        return true;
      })
      .reply(201, {});
    github()
      .post(`/repos/${OWNER}/${REPO}/issues/${number}/labels`, { labels: ["score: rejected"] })
      .reply(200, []);
    await deliver(service, "issues", body);
    await settle();
    expect(created.name).toBe("score: rejected");
  });

  it("`needs-human` is opt-in: set, with the comment's reason, when the personas disagree; taken off when they no longer do", async () => {
    const body = payload("issues", "opened");
    const number = body.issue.number;
    body.issue.title = "Refactor the database layer";
    body.issue.body = "The query builder is duplicated in four services; move it into one module with tests.";
    mockConfig("labels:\n  needs-human: needs-human\n");
    const posted = expectNewComment(number);
    github().get(`/repos/${OWNER}/${REPO}/labels/needs-human`).reply(404);
    let created: any;
    github()
      .post(`/repos/${OWNER}/${REPO}/labels`, (b) => {
        created = b;
        return true;
      })
      .reply(201, {});
    github()
      .post(`/repos/${OWNER}/${REPO}/issues/${number}/labels`, { labels: ["needs-human"] })
      .reply(200, []);
    await deliver(service, "issues", body);
    await settle();
    expect(created).toMatchObject({ name: "needs-human", color: "fbca04" });
    expect(posted()).toMatch(
      /\*\*Needs a human:\*\* the personas are \d points apart \(Technical Architect \d+, Revenue Expert \d\)\./,
    );

    // Edited into a plain bug report the personas agree on: the label comes off, the comment says nothing.
    const edited = payload("issues", "edited");
    edited.issue.number = number;
    edited.issue.title = "Crash when saving file";
    edited.issue.body =
      "Steps to reproduce:\n1. Open a document\n2. Press save\n\nExpected: saved. Actual: the app crashes with TypeError: cannot read properties of undefined.";
    edited.issue.labels = [{ name: "needs-human" }];
    edited.changes = { title: { from: "Refactor the database layer" } };
    mockConfig("labels:\n  needs-human: needs-human\n");
    mockComments(number, [{ id: 1001, body: REPORT_MARKER }]);
    let updated = "";
    github()
      .patch(`/repos/${OWNER}/${REPO}/issues/comments/1001`, (b) => {
        updated = b.body;
        return true;
      })
      .reply(200, { id: 1001 });
    github().delete(`/repos/${OWNER}/${REPO}/issues/${number}/labels/needs-human`).reply(200, []);
    await deliver(service, "issues", edited);
    await settle();
    expect(updated).toContain("Revenue Expert");
    expect(updated).not.toContain("Needs a human");
  });

  it("an invalid key still scores with its default; the problem goes to the log with its line and column, not into the comment", async () => {
    await service.close();
    const { logger, lines } = capturingLogger();
    service = await startService({}, undefined, logger);
    mockToken();
    const body = payload("issues", "opened");
    const number = body.issue.number;
    const yaml = "comment: true\napproval:\n  min-average: 42\nlabelz: true\n";
    mockConfig(yaml);
    mockConfig(yaml); // read again, raw, to place each problem on its line
    const posted = expectNewComment(number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toContain("Revenue Expert");
    expect(posted()).not.toMatch(/ignored|task-scorer\.yml/);
    const warnings = lines.filter((l) => l.level === 40 && l.msg === "repository config problem");
    expect(warnings.map((w) => [w.key, w.line, w.column])).toEqual([
      ["approval", 2, 1],
      ["labelz", 4, 1],
    ]);
    expect(warnings[0]!.problem).toMatch(/`approval` ignored \(min-average: Too big/);
  });

  it("`enabled: no` turns the App off (YAML booleans in their usual spellings)", async () => {
    mockConfig("enabled: no\n");
    await deliver(service, "issues", payload("issues", "opened"));
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("an unreadable `enabled` fails closed: nothing is posted", async () => {
    mockConfig("enabled: maybe\n");
    mockConfig("enabled: maybe\n");
    await deliver(service, "issues", payload("issues", "opened"));
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("invalid YAML fails closed, and the log gives the line and column without any URL", async () => {
    await service.close();
    const { logger, lines } = capturingLogger();
    service = await startService({}, undefined, logger);
    mockToken();
    mockConfig("enabled: true\nlabels: [unclosed\n");
    await deliver(service, "issues", payload("issues", "opened"));
    await settle();
    const warning = lines.find((l) => l.msg === "repository config problem")!;
    expect(warning.level).toBe(40);
    expect(warning.line).toBeGreaterThan(0);
    expect(warning.column).toBeGreaterThan(0);
    expect(warning.problem).toMatch(/not valid YAML/);
    expect(JSON.stringify(warning)).not.toMatch(/https?:/);
  });

  it("comment-style: full shows the persona table open", async () => {
    const body = payload("issues", "opened");
    mockConfig("comment-style: full\n");
    const posted = expectNewComment(body.issue.number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toContain("| 💼 Revenue Expert |");
    expect(posted()).not.toContain("<details>");
  });

  it("comment-style defaults to compact: the persona table folded in <details>", async () => {
    const body = payload("issues", "opened");
    mockConfig();
    const posted = expectNewComment(body.issue.number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toMatch(/<details>[\s\S]*Revenue Expert[\s\S]*<\/details>/);
  });

  it("respects skip labels and skip title patterns", async () => {
    mockConfig("skip-title-patterns: ['^wip\\b']\n");
    await deliver(
      service,
      "issues",
      payload("issues", "opened", (p) => (p.issue.title = "WIP: something")),
    );
    await settle();
  });
});

describe("GitHub App: trigger modes", () => {
  it("trigger: label does not score a new issue without the label", async () => {
    mockConfig("trigger: label\ntrigger-label: needs-score\n");
    await deliver(service, "issues", payload("issues", "opened"));
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("trigger: label scores the issue when the label is added", async () => {
    const body = payload("issues", "labeled", (p) => {
      p.label = { name: "needs-score" };
      p.issue.labels = [{ name: "needs-score" }];
    });
    mockConfig("trigger: label\ntrigger-label: needs-score\n");
    const posted = expectNewComment(body.issue.number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toContain("Task score");
  });

  it("removing a skip label scores the issue", async () => {
    const body = payload("issues", "unlabeled", (p) => {
      p.label = { name: "wontfix" };
      p.issue.labels = [];
    });
    mockConfig("skip-labels: [wontfix]\n");
    const posted = expectNewComment(body.issue.number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toContain("Task score");
  });

  it("adding or removing another label scores nothing", async () => {
    mockConfig();
    await deliver(
      service,
      "issues",
      payload("issues", "labeled", (p) => (p.label = { name: "enhancement" })),
    );
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("a label event right behind `opened` does not swallow it: the issue is still scored once", async () => {
    await service.close();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    service = await startService(
      { APP_QUEUE_CONCURRENCY: "1" },
      {
        description: "offline",
        scorer: {
          name: "offline",
          score: async (input) => {
            if (input.task === "Blocker") await gate;
            return scoreOffline(input);
          },
        },
      },
    );
    mockToken();
    // Another issue holds the only slot, so `opened` and `labeled` for issue 1 wait together.
    const blocker = payload("issues", "opened", (p) => {
      p.issue.number = 99;
      p.issue.title = "Blocker";
    });
    mockConfig();
    expectNewComment(99);
    await deliver(service, "issues", blocker);
    const opened = payload("issues", "opened");
    const labeled = payload("issues", "opened", (p) => {
      p.action = "labeled";
      p.label = { name: "enhancement" };
      p.issue.labels = [{ name: "enhancement" }];
    });
    mockConfig();
    const posted = expectNewComment(opened.issue.number);
    await deliver(service, "issues", opened);
    await deliver(service, "issues", labeled);
    release();
    await settle();
    expect(posted()).toContain("Task score");
  });

  it("trigger: command does not score new issues", async () => {
    mockConfig("trigger: command\n");
    await deliver(service, "issues", payload("issues", "opened"));
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });
});

describe("GitHub App: webhook delivery", () => {
  it("a bad signature gets 401 invalid_signature in the API's error shape, a log line saying why, and changes nothing", async () => {
    await service.close();
    const { logger, lines } = capturingLogger();
    service = await startService({}, undefined, logger);
    const body = payload("issues", "opened");
    const res = await deliver(service, "issues", body, "bad-sig", sign(JSON.stringify(body) + "tampered"));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: "invalid_signature", message: expect.stringMatching(/does not match the payload/) },
    });
    expect(res.body).not.toMatch(/@octokit|Error:/);
    const line = lines.find((l) => l.delivery === "bad-sig")!;
    expect(line.level).toBe(40);
    expect(line.msg).toMatch(/signature does not match/);
    await settle();
    expect(service.queue!.stats.queued).toBe(0);
  });

  it("a delivery without a signature gets 401 invalid_signature", async () => {
    const res = await service.server.inject({
      method: "POST",
      url: "/api/github/webhooks",
      headers: {
        "content-type": "application/json",
        "x-github-event": "issues",
        "x-github-delivery": "nosig",
      },
      payload: JSON.stringify(payload("issues", "opened")),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("invalid_signature");
    expect(res.json().error.message).toMatch(/no X-Hub-Signature-256/);
    expect(service.queue!.stats.queued).toBe(0);
  });

  it("GET on the webhook path gets 405 saying GitHub delivers there by POST", async () => {
    const res = await service.server.inject({ method: "GET", url: "/api/github/webhooks" });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect(res.json().error).toEqual({
      code: "method_not_allowed",
      message: "GitHub delivers webhooks to /api/github/webhooks by POST; GET is not supported here.",
    });
  });

  it("still serves the REST API from the same process", async () => {
    const res = await service.server.inject({
      method: "POST",
      url: "/score-task",
      payload: { task: "Add dark mode" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().expertScores).toHaveLength(5);
  });
});

describe("GitHub App: slow and failing scorers", () => {
  it("acknowledges the delivery while a slow scorer is still working, then posts the report", async () => {
    await service.close();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    service = await startService(
      {},
      {
        description: "slow",
        scorer: {
          name: "slow",
          score: async (input) => {
            started = true;
            await gate;
            return scoreOffline(input);
          },
        },
      },
    );
    mockToken();
    const body = payload("issues", "opened");
    const number = body.issue.number;
    mockConfig();
    mockComments(number, []);
    github().post(`/repos/${OWNER}/${REPO}/issues/${number}/comments`).reply(201, { id: 1 });
    mockComments(number, [{ id: 1, body: REPORT_MARKER }]);

    const res = await deliver(service, "issues", body);
    // The webhook is answered although the scorer has not finished.
    expect(res.statusCode).toBeLessThan(300);
    // The job starts when the queue gets to it: waited for (up to 10 s), not a fixed 50 ms, which a loaded machine
    // missed once (the test failed with the scorer not yet started).
    for (let i = 0; i < 400 && !started; i++) await new Promise((r) => setTimeout(r, 25));
    expect(started).toBe(true);
    expect(service.queue!.size).toBe(1);
    release();
    await settle();
    expect(service.queue!.stats.completed).toBe(1);
  });

  it("gives the scoring the job's deadline (the job limit less 10 s for the writes) and the job's signal", async () => {
    await service.close();
    let seen: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {};
    service = await startService(
      { APP_JOB_TIMEOUT_SECONDS: "40" },
      {
        description: "spy",
        scorer: {
          name: "spy",
          score: async (input, options) => {
            seen = { timeoutMs: options?.timeoutMs, signal: options?.signal };
            return scoreOffline(input);
          },
        },
      },
    );
    mockToken();
    const body = payload("issues", "opened");
    mockConfig();
    expectNewComment(body.issue.number);
    await deliver(service, "issues", body);
    await settle();
    expect(seen.timeoutMs).toBeGreaterThan(25_000);
    expect(seen.timeoutMs).toBeLessThanOrEqual(30_000);
    expect(seen.signal).toBeInstanceOf(AbortSignal);
  });

  it("when the scorer fails, the comment says so and how to retry", async () => {
    await service.close();
    service = await startService(
      {},
      {
        description: "openai gpt-test",
        scorer: {
          name: "openai",
          score: async () => {
            throw new ScorerUnavailableError(
              "The model provider could not be reached for all five personas.",
            );
          },
        },
      },
    );
    mockToken();
    const body = payload("issues", "opened");
    const number = body.issue.number;
    mockConfig();
    const posted = expectNewComment(number);
    await deliver(service, "issues", body);
    await settle();
    expect(posted()).toContain(REPORT_MARKER);
    expect(posted()).toContain("could not score this issue");
    expect(posted()).toContain("could not be reached");
    expect(posted()).toContain("/score");
  });
});
