import { describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { REPLY_MARKER } from "../../src/app/commands/command.js";
import type { FakeIssue } from "../helpers/fake-github.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";
import { backlogApi } from "../helpers/backlog-api.js";
import type { Db } from "../../src/storage/tables.js";
import { KIND_MODEL } from "../../src/core/offline/kind-model.data.js";
import { kindModelId } from "../../src/core/offline/kind-model.js";

/**
 * Learning from a repository's own history, through the App as a maintainer meets it: install the App on a
 * repository with closed, labelled issues and open ones; the App reads the closed issues (state=closed, with
 * state_reason and labels, pull requests left out), learns, backfills, and the tasks API and each stored
 * report say what was learned. GitHub is a stand-in on loopback; the issues are made up here. Runs on the
 * embedded PGlite and on the real PostgreSQL of DATABASE_URL.
 */
export function learningSuite(engine: "pglite" | "postgres"): void {
  const app = appWithStandIn({ storage: engine });
  const { github } = app;
  /** The service the test started (closed after it, its database dropped, by the harness). */
  let service: Service;
  const start = async () => (service = await app.start());
  const api = backlogApi(() => app.service, "acme/gizmo");
  const { install } = api;
  /** Done, every issue listed, and (when given) learned from `closedIssues` closed issues. */
  const untilDone = (repo = "acme/gizmo", closedIssues?: number) =>
    api.untilDone(repo, { query: "?limit=500", closedIssues, tries: 600 });

  /**
   * A project whose own words the shipped model cannot know: "gizmo" reports in three shapes that read alike
   * to it. Here a "wobble" is a bug, a "twiddle" a request and a "setup" a support question. The labels are
   * spelled as real trackers spell them.
   */
  const PARTS = [
    "rotor",
    "hinge",
    "spindle",
    "lever",
    "valve",
    "gasket",
    "sprocket",
    "pulley",
    "latch",
    "bracket",
  ];
  function issue(n: number, kind: "bug" | "feature" | "question", state: "open" | "closed"): FakeIssue {
    const part = PARTS[n % PARTS.length]!;
    const word = { bug: "wobble", feature: "twiddle", question: "setup" }[kind];
    const label = { bug: "Type: Bug", feature: "feature-request", question: "type:support" }[kind];
    return {
      number: n,
      title: `${part} ${word} on the gizmo`,
      body: `A ${part} ${word} on the gizmo.`,
      ...(state === "closed"
        ? {
            state,
            labels: [label, n % 4 === 0 ? "priority: low" : "good first issue"],
            // Bugs and requests get done; support questions are closed as not planned.
            state_reason:
              kind === "question" || n % 5 === 0 ? ("not_planned" as const) : ("completed" as const),
          }
        : {}),
    };
  }
  const KINDS = ["bug", "feature", "question"] as const;
  function history(closed: number, open: number): FakeIssue[] {
    const out: FakeIssue[] = [];
    for (let n = 1; n <= closed; n++) out.push(issue(n, KINDS[n % 3]!, "closed"));
    // A merged pull request is closed too: learning leaves it out.
    out.push({ number: closed + 1, title: "Bump gizmo", body: "", pull_request: true, state: "closed" });
    for (let n = closed + 2; n < closed + 2 + open; n++) out.push(issue(n, KINDS[n % 3]!, "open"));
    return out;
  }

  const kindsOf = (list: { tasks: { number: number; kind: string }[] }) =>
    new Map(list.tasks.map((t) => [t.number, t.kind]));
  const truth = (n: number) => KINDS[n % 3]!;

  describe("learning from the repository's closed issues", () => {
    it("on install: reads the closed issues, learns, and the board's kinds and the API say so", async () => {
      github.repoIssues.set("acme/gizmo", history(60, 30));
      service = await start();
      await install();
      const list = await untilDone("acme/gizmo", 60);

      // 60 closed issues (the pull request left out), of which the labels name a kind for all 60.
      expect(list.calibration).toEqual({ closedIssues: 60, used: true });
      expect(list.total).toBe(30);
      const kinds = kindsOf(list);
      const right = [...kinds].filter(([n, k]) => k === truth(n)).length;
      expect(right).toBe(30);

      // Read through REST: one page of closed issues, then one page of open ones.
      expect(github.requests.filter((r) => r.path === "/repos/acme/gizmo/issues")).toHaveLength(2);
      // Each stored report states the calibration in its reading.
      const db = (service.backlogStore as unknown as { db: Db }).db;
      const rows = await db.selectFrom("backlog_tasks").select(["report"]).execute();
      expect(rows).toHaveLength(30);
      for (const row of rows)
        expect(JSON.parse(row.report).reading.calibration).toEqual({
          repository: "acme/gizmo",
          closedIssues: 60,
        });
      // Silent: nothing written on GitHub.
      expect(github.requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/access_tokens"))).toEqual(
        [],
      );
    });

    it("kind labels take the names the repository's own closed issues use (output: labels)", async () => {
      github.repoIssues.set("acme/gizmo", history(60, 30));
      github.configFiles.set("acme/gizmo", "output: [labels]\n");
      service = await start();
      await install();
      await untilDone("acme/gizmo", 60);
      // The open issues (62 to 91) carry the label this repository uses for their kind, not GitHub's default.
      const own = { bug: "Type: Bug", feature: "feature-request", question: "type:support" };
      const labelled = [...github.issueLabels].filter(([key]) => key.startsWith("acme/gizmo#"));
      expect(labelled.length).toBeGreaterThan(20);
      for (const [key, labels] of labelled) {
        const n = Number(key.split("#")[1]);
        expect(labels).toContain(own[truth(n)]);
        expect(labels).not.toEqual(expect.arrayContaining(["bug"]));
        expect(labels).not.toEqual(expect.arrayContaining(["enhancement"]));
      }
      // Silent still: labels, never a comment.
      expect(github.comments).toEqual([]);
    });

    it("learning again from the same closed issues changes nothing and scores nothing again", async () => {
      github.repoIssues.set("acme/gizmo", history(60, 30));
      service = await start();
      await install();
      const first = await untilDone("acme/gizmo", 60);
      const db = (service.backlogStore as unknown as { db: Db }).db;
      const learnedRow = () =>
        db.selectFrom("repository_calibrations").select(["version", "learned_at"]).executeTakeFirstOrThrow();
      const before = await learnedRow();

      // The weekly re-learning, as the runner asks for it.
      await service.backlogStore!.requestBackfill("acme/gizmo", {}, { learn: true });
      service.backfill!.wake();
      await service.backfill!.idle();
      const again = await untilDone("acme/gizmo", 60);
      const after = await learnedRow();
      // It did learn again (a later learned_at), and the version that caches and instances follow stayed.
      expect(new Date(after.learned_at).getTime()).toBeGreaterThan(new Date(before.learned_at).getTime());
      expect(after.version).toBe(before.version);
      expect(again.calibration).toEqual({ closedIssues: 60, used: true });
      const scoredAt = (l: { tasks: { number: number; scoredAt: string }[] }) =>
        new Map(l.tasks.map((t) => [t.number, t.scoredAt]));
      expect(scoredAt(again)).toEqual(scoredAt(first));
    });

    it("a kind adjustment fitted against an earlier release's kind model is learned again at the first check", async () => {
      github.repoIssues.set("acme/gizmo", history(60, 30));
      service = await start();
      await install();
      await untilDone("acme/gizmo", 60);
      const store = service.backlogStore!;
      const week = 7 * 86_400_000;
      const current = kindModelId(KIND_MODEL);
      // Learned just now against this release's model: nothing to do.
      expect(await store.requestStaleLearning(week, current)).toBe(0);
      // As if a release had refitted the kind model since.
      expect(await store.requestStaleLearning(week, "k131072-0")).toBe(1);
      service.backfill!.wake();
      await service.backfill!.idle();
      const again = await untilDone("acme/gizmo", 60);
      expect(again.calibration).toEqual({ closedIssues: 60, used: true });
    });

    it("the shipped model alone reads the project's own words worse (before learning)", async () => {
      github.repoIssues.set("acme/gizmo", history(60, 30));
      // The same open issues, but no history to learn from.
      github.repoIssues.set(
        "acme/gizmo",
        github.repoIssues.get("acme/gizmo")!.filter((i) => i.state !== "closed"),
      );
      service = await start();
      await install();
      const list = await untilDone("acme/gizmo", 0);
      expect(list.calibration).toEqual({ closedIssues: 0, used: false });
      const right = [...kindsOf(list)].filter(([n, k]) => k === truth(n)).length;
      expect(right).toBeLessThan(30);
    });

    it("too little history keeps the shipped model and says so (used: false, with the count)", async () => {
      github.repoIssues.set("acme/gizmo", history(12, 6));
      service = await start();
      await install();
      const list = await untilDone("acme/gizmo", 12);
      expect(list.calibration).toEqual({ closedIssues: 12, used: false });
      const report = await service.server.inject({ method: "GET", url: "/board/acme/gizmo" });
      expect(report.statusCode).toBe(200);
    });

    it("/score learn from a maintainer learns, replies, and re-scores the backlog", async () => {
      // Installed before any history existed: the shipped model.
      github.repoIssues.set(
        "acme/gizmo",
        history(60, 30).filter((i) => i.state !== "closed"),
      );
      service = await start();
      await install();
      const before = await untilDone("acme/gizmo", 0);
      expect(before.calibration.used).toBe(false);

      // Then the project closes and labels its issues, and a maintainer asks to learn.
      github.repoIssues.set("acme/gizmo", history(60, 30));
      github.roles.set("acme/gizmo:maint", "maintain");
      const comment = payload("issue_comment", "created", (p) => {
        p.repository.owner.login = "acme";
        p.repository.name = "gizmo";
        p.repository.full_name = "acme/gizmo";
        p.repository.private = false;
        p.issue.number = 62;
        delete p.issue.pull_request;
        p.comment.body = "/score learn";
        p.comment.user.login = "maint";
        p.sender.login = "maint";
        p.sender.type = "User";
      });
      const res = await deliver(service, "issue_comment", comment);
      expect(res.statusCode).toBe(200);
      const after = await untilDone("acme/gizmo", 60);
      expect(after.calibration).toEqual({ closedIssues: 60, used: true });
      // Every open issue was scored again, unchanged text or not.
      const right = [...kindsOf(after)].filter(([n, k]) => k === truth(n)).length;
      expect(right).toBe(30);
      await service.queue!.drain();
      const replies = github.commentsOn("acme/gizmo#62");
      expect(replies).toHaveLength(1);
      const replyText = replies[0]!.body;
      expect(replyText).toContain(REPLY_MARKER);
      expect(replyText).toMatch(/Learning from acme\/gizmo's closed issues is queued/);
      expect(replyText).toMatch(/\/board\/acme\/gizmo/);
    });
  });
}
