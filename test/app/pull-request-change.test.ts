import { describe, expect, it } from "@jest/globals";
import { PERSONA_IDS } from "../../src/core/personas.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { decide } from "../../src/app/job/decide.js";
import { skipReason } from "../../src/app/skip-rules.js";
import { parseRepoConfig } from "../../src/repo-config/repo-config.schema.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";
import { headShaOf } from "../helpers/fake-github.js";

/**
 * A pull request read from its change (issue 31, phase 2), end to end: the App against the stand-in GitHub on
 * loopback lists the files page by page, and the one report comment states the change, edited in place when new
 * commits change it.
 */
const { github, start } = appWithStandIn();

const REPO = "acme/widgets";
const KEY = (n: number) => `${REPO}#${n}`;

function pullRequest(number: number, action: string, patch: (p: any) => void = () => {}) {
  return payload("pull_request", action, (p) => {
    p.repository.owner.login = "acme";
    p.repository.name = "widgets";
    p.repository.full_name = REPO;
    p.pull_request.number = number;
    p.pull_request.title = "Add CSV export to the reports page";
    p.pull_request.body = "Users copy tables by hand. Adds an Export CSV button.\n\nFixes #12";
    p.pull_request.draft = false;
    p.pull_request.head.sha = headShaOf(number);
    delete p.pull_request.changed_files;
    // As GitHub sends it: the labels the pull request carries when the event is made.
    p.pull_request.labels = (github.issueLabels.get(KEY(number)) ?? []).map((name) => ({ name }));
    p.sender.type = "User";
    patch(p);
  });
}

/** `n` source files of `lines` added lines each, as GitHub lists them. */
function files(n: number, lines = 2, prefix = "src/file") {
  return Array.from({ length: n }, (_, i) => ({
    filename: `${prefix}${i}.ts`,
    status: "modified",
    additions: lines,
    deletions: 1,
    changes: lines + 1,
    patch: "@@ -1 +1 @@\n-a\n+b",
  }));
}

const fileRequests = (n: number) =>
  github.requests.filter((r) => r.method === "GET" && r.path === `/repos/${REPO}/pulls/${n}/files`);

describe("the App reads a pull request's change", () => {
  it("lists 250 files in three pages of 100 and states the change in the one comment", async () => {
    github.pullFiles.set(KEY(7), [...files(248), ...files(2, 10, "test/file")]);
    const service = await start();
    await deliver(service, "pull_request", pullRequest(7, "opened"));
    await service.queue!.drain();

    expect(fileRequests(7)).toHaveLength(3);
    const comments = github.commentsOn(KEY(7));
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(REPORT_MARKER);
    // 248 × 2 + 2 × 10 added, one removed in each file.
    expect(comments[0]!.body).toContain("**Change:** +516 −250 in 250 files · tests: 2 files · size L");
    // The personas read it too: the architect the files, the product manager the issue it closes.
    expect(comments[0]!.body).toContain(
      "no file is new \\(766 lines change 250 existing files\\); 2 of the 250 files are tests.",
    );
    expect(comments[0]!.body).toContain("Its description says it closes \\#12.");
  });

  it("new commits re-read the change and edit the same comment, the text's verdicts kept", async () => {
    let calls = 0;
    const service = await start(
      {},
      {
        description: "varying",
        scorer: {
          name: "varying",
          // A model's verdict may change from call to call: a push must not ask again.
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
    github.pullFiles.set(KEY(8), files(3));
    await deliver(service, "pull_request", pullRequest(8, "opened"));
    await service.queue!.drain();
    const [first] = github.commentsOn(KEY(8));
    expect(first!.body).toContain("+6 −3 in 3 files");

    github.pullFiles.set(KEY(8), files(5, 40));
    const pushed = "0123456789abcdef0123456789abcdef01234567";
    await deliver(
      service,
      "pull_request",
      pullRequest(8, "synchronize", (p) => {
        p.pull_request.head.sha = pushed;
        p.before = headShaOf(8);
      }),
    );
    await service.queue!.drain();

    const after = github.commentsOn(KEY(8));
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(first!.id);
    expect(after[0]!.body).toContain("+200 −5 in 5 files");
    expect(after[0]!.body).not.toContain("+6 −3 in 3 files");
    const edits = github.requests.filter(
      (r) => r.method === "PATCH" && r.path.endsWith(`/comments/${first!.id}`),
    );
    expect(edits).toHaveLength(1);
    expect(calls).toBe(1);
    expect(after[0]!.body).toContain("call 1");
    expect(fileRequests(8)).toHaveLength(2);
  });

  it("a file list GitHub cut at 3,000 says so", async () => {
    github.pullFiles.set(KEY(9), files(3500, 1));
    const service = await start();
    await deliver(
      service,
      "pull_request",
      pullRequest(9, "opened", (p) => (p.pull_request.changed_files = 3500)),
    );
    await service.queue!.drain();
    expect(fileRequests(9)).toHaveLength(30);
    expect(github.commentsOn(KEY(9))[0]!.body).toContain("in 3,000 files");
    expect(github.commentsOn(KEY(9))[0]!.body).toContain("GitHub listed the first 3,000 files only");
  });

  it("a listing GitHub refuses costs the report nothing, and it says nothing of a change", async () => {
    github.failWith("GET", /\/pulls\/10\/files$/, 403);
    const service = await start();
    await deliver(service, "pull_request", pullRequest(10, "opened"));
    await service.queue!.drain();
    expect(fileRequests(10)).toHaveLength(1);
    const [comment] = github.commentsOn(KEY(10));
    expect(comment!.body).toContain("### Task score");
    expect(comment!.body).not.toContain("Change:");
    expect(comment!.body).not.toMatch(/in \d+ files?/);
  });

  it("an issue lists no files", async () => {
    const service = await start();
    await deliver(
      service,
      "issues",
      payload("issues", "opened", (p) => {
        p.repository.owner.login = "acme";
        p.repository.name = "widgets";
        p.repository.full_name = REPO;
        p.issue.number = 11;
        p.issue.title = "Crash when saving";
        p.issue.body = "It crashes.";
        p.issue.labels = [];
      }),
    );
    await service.queue!.drain();
    expect(github.commentsOn(KEY(11))).toHaveLength(1);
    expect(github.requests.filter((r) => r.path.includes("/pulls/"))).toEqual([]);
  });
});

describe("size labels (`size-labels` in .github/task-scorer.yml)", () => {
  const labels = (n: number) => github.issueLabels.get(KEY(n)) ?? [];

  it("writes exactly one size label, and new commits replace it", async () => {
    github.configFiles.set(REPO, "size-labels: true\n");
    github.issueLabels.set(KEY(20), ["size/XL", "keep-me"]);
    github.pullFiles.set(KEY(20), files(3));
    const service = await start();
    await deliver(service, "pull_request", pullRequest(20, "opened"));
    await service.queue!.drain();
    // 3 × (2 + 1) = 9 lines: S. The stale size/XL goes; a label people set stays.
    expect(labels(20).sort()).toEqual(["keep-me", "size/S"]);
    expect(github.repoLabels.get(REPO)?.get("size/S")).toMatchObject({ name: "size/S" });

    github.pullFiles.set(KEY(20), files(5, 40));
    await deliver(
      service,
      "pull_request",
      pullRequest(20, "synchronize", (p) => {
        p.pull_request.head.sha = "0123456789abcdef0123456789abcdef01234567";
        p.before = headShaOf(20);
      }),
    );
    await service.queue!.drain();
    // 5 × 41 = 205 lines: M.
    expect(labels(20).sort()).toEqual(["keep-me", "size/M"]);
    expect(github.commentsOn(KEY(20))).toHaveLength(1);
  });

  it("takes the repository's names, and writes none where the change could not be read", async () => {
    github.configFiles.set(REPO, "size-labels:\n  S: small\n  M: medium\n");
    github.pullFiles.set(KEY(21), files(3));
    const service = await start();
    await deliver(service, "pull_request", pullRequest(21, "opened"));
    await service.queue!.drain();
    expect(labels(21)).toEqual(["small"]);

    github.issueLabels.set(KEY(22), ["medium"]);
    github.failWith("GET", /\/pulls\/22\/files$/, 404);
    await deliver(service, "pull_request", pullRequest(22, "opened"));
    await service.queue!.drain();
    expect(labels(22)).toEqual(["medium"]);
  });

  it("off by default; an issue never gets one", async () => {
    github.pullFiles.set(KEY(23), files(3));
    const service = await start();
    await deliver(service, "pull_request", pullRequest(23, "opened"));
    await service.queue!.drain();
    expect(labels(23)).toEqual([]);
  });

  it("reads true, a mapping, and refuses two bands with one name", () => {
    expect(parseRepoConfig({}).config["size-labels"]).toBe(false);
    expect(parseRepoConfig({ "size-labels": "yes" }).config["size-labels"]).toEqual({
      XS: "size/XS",
      S: "size/S",
      M: "size/M",
      L: "size/L",
      XL: "size/XL",
    });
    expect(parseRepoConfig({ "size-labels": { XL: "huge" } }).config["size-labels"]).toMatchObject({
      XS: "size/XS",
      XL: "huge",
    });
    const same = parseRepoConfig({ "size-labels": { XS: "small", S: "small" } });
    expect(same.config["size-labels"]).toBe(false);
    expect(same.diagnostics[0]?.message).toContain("each size band needs a label of its own");
    const typo = parseRepoConfig({ "size-labels": { XXL: "giant" } });
    expect(typo.config["size-labels"]).toBe(false);
    expect(typo.diagnostics).toHaveLength(1);
  });
});

describe("new commits (pure rules)", () => {
  const pushed = { kind: "head-pushed" } as const;
  const pr = {
    ref: { owner: "o", repo: "r", issue_number: 1 },
    title: "Add CSV export",
    body: "",
    isPullRequest: true,
    draft: false,
    labels: [],
  };
  const config = (raw: unknown) => parseRepoConfig(raw).config;

  it("follow a pull request where a comment, a check run or a size label would be written", () => {
    expect(skipReason(config({}), pushed, pr)).toBeUndefined();
    expect(skipReason(config({ output: ["labels"] }), pushed, pr)).toBe(
      "nothing follows new commits (no comment, check or size label)",
    );
    expect(skipReason(config({ output: ["labels"], "size-labels": true }), pushed, pr)).toBeUndefined();
    expect(skipReason(config({ triggers: { "pull-requests": [] } }), pushed, pr)).toBe(
      "pull request triggers disabled",
    );
    expect(skipReason(config({ trigger: "command" }), pushed, pr)).toBe("trigger mode command");
    expect(skipReason(config({}), pushed, { ...pr, draft: true })).toBe("draft pull request");
  });

  it("are push-only (metered without a charge) and write the comment, the check run and the size label only", () => {
    const decision = decide(
      config({ output: ["comment", "labels", "check"], "size-labels": true, labels: { approved: "ok" } }),
      [pushed],
      pr,
    );
    expect(decision.pushOnly).toBe(true);
    expect(decision.outputs).toMatchObject({
      comment: true,
      check: true,
      approvalLabels: undefined,
      needsHumanLabel: undefined,
      kindLabels: false,
      project: undefined,
      sizeLabels: { XS: "size/XS" },
    });
  });
});
