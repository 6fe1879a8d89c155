import { describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { BacklogStore } from "../../src/backlog/backlog-store.js";
import { BackfillRunner } from "../../src/backlog/backfill-runner.js";
import type { FakeIssue } from "../helpers/fake-github.js";
import { appWithStandIn, deliver, INSTALLATION_ID, payload } from "../helpers/app-harness.js";
import { backlogApi } from "../helpers/backlog-api.js";
import { REPLY_MARKER } from "../../src/app/commands/command.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The backlog through the App, as a maintainer meets it: install the App on a repository with open issues,
 * and every issue is scored silently (no comment anywhere), ranked by the tasks API, resumable, and within
 * GitHub's limits. GitHub is a stand-in on loopback. The suite runs on both engines the service stores
 * in: the embedded PGlite (in memory) in `backfill-pglite.test.ts`, and the real PostgreSQL of
 * DATABASE_URL (a fresh database per test) in `backfill-postgres.test.ts`.
 */
export function backfillSuite(engine: "pglite" | "postgres"): void {
  const app = appWithStandIn({ storage: engine });
  const { github } = app;
  /** The service the test started (closed after it, its database dropped, by the harness). */
  let service: Service;
  const start = async () => (service = await app.start());
  const { tasks, untilDone, install } = backlogApi(() => app.service, "acme/widgets");

  /** Made-up issues of three shapes, and some pull requests, which the backlog must leave out. */
  function backlog(n: number, pulls = 0): FakeIssue[] {
    const out: FakeIssue[] = [];
    const step = pulls ? Math.floor((n + pulls) / pulls) : 0;
    let pullsLeft = pulls;
    for (let i = 1; i <= n + pulls; i++) {
      if (pullsLeft > 0 && i % step === 0) {
        pullsLeft--;
        out.push({ number: i, title: `Bump dependency ${i}`, body: "Automated update.", pull_request: true });
        continue;
      }
      const shape = i % 3;
      out.push(
        shape === 0
          ? {
              number: i,
              title: `Crash when saving file ${i}`,
              body: "Steps to reproduce:\n1. Open a document\n2. Press save\n\nExpected: saved. Actual: the app crashes with TypeError: cannot read properties of undefined.",
            }
          : shape === 1
            ? {
                number: i,
                title: `Add CSV export for report ${i}`,
                body: "Twelve customers asked for CSV export this quarter. Acceptance: one row per task, UTF-8.",
              }
            : { number: i, title: `question about setup ${i}`, body: "How do I configure this?" },
      );
    }
    return out;
  }

  const writes = () => github.requests.filter((r) => r.method !== "GET");

  describe("backfill on install", () => {
    // The service's first start (a database created) and 230 issues scored: 7 s alone, but 57 s and once over the
    // default 60 s beside CI's other jobs on a 2-core machine; a hang still fails, later.
    it("scores every open issue silently (pull requests left out), and the tasks API ranks them", async () => {
      github.repoIssues.set("acme/widgets", backlog(230, 20));
      service = await start();
      const res = await install();
      expect(res.statusCode).toBe(200);
      const list = await untilDone();

      expect(list.repository).toBe("acme/widgets");
      expect(list.total).toBe(230);
      expect(list.backfill).toEqual({ state: "done", done: 230, total: 230 });
      expect(list.calibration).toEqual({ closedIssues: 0, used: false });
      expect(list.tasks).toHaveLength(100);
      expect(list.nextCursor).toEqual(expect.any(String));
      const scores = list.tasks.map((t: { score: number }) => t.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(list.tasks.some((t: { title: string }) => t.title.startsWith("Bump dependency"))).toBe(false);
      expect(list.tasks[0]).toEqual({
        number: expect.any(Number),
        title: expect.any(String),
        ask: list.tasks[0].ask === null ? null : expect.any(String),
        url: expect.stringMatching(/^https:\/\/github\.com\/acme\/widgets\/issues\/\d+$/),
        score: expect.any(Number),
        approved: expect.any(Boolean),
        needsHuman: expect.any(Boolean),
        kind: expect.any(String),
        personas: {
          revenue: expect.any(Number),
          architect: expect.any(Number),
          ux: expect.any(Number),
          product: expect.any(Number),
          marketing: expect.any(Number),
        },
        scoredAt: expect.any(String),
        duplicateOf: list.tasks[0].duplicateOf === null ? null : expect.any(Number),
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-02T00:00:00.000Z",
      });

      // Silent: nothing was written on GitHub (only the installation token was asked for).
      expect(writes().filter((r) => !r.path.endsWith("/access_tokens"))).toEqual([]);
      // Listed through REST, 100 a page, following Link (after one page of closed issues to learn from).
      const pages = github.requests.filter((r) => r.path === "/repos/acme/widgets/issues");
      expect(pages).toHaveLength(4);

      // The rest of the pages through the cursor: every issue exactly once.
      const seen = new Set<number>(list.tasks.map((t: { number: number }) => t.number));
      let cursor = list.nextCursor;
      while (cursor) {
        const page = (await tasks(`?cursor=${encodeURIComponent(cursor)}`)).json();
        for (const t of page.tasks) seen.add(t.number);
        cursor = page.nextCursor;
      }
      expect(seen.size).toBe(230);
    }, 180_000);

    it("filters, sorts, searches and downloads CSV", async () => {
      github.repoIssues.set("acme/widgets", backlog(30));
      service = await start();
      await install();
      await untilDone();

      const bugs = (await tasks("?kind=bug")).json();
      expect(bugs.total).toBeGreaterThan(0);
      expect(bugs.tasks.every((t: { kind: string }) => t.kind === "bug")).toBe(true);
      expect(bugs.tasks.every((t: { title: string }) => t.title.startsWith("Crash"))).toBe(true);

      const search = (await tasks("?q=csv%20EXPORT")).json();
      expect(search.total).toBe(10);
      expect(search.tasks.every((t: { title: string }) => /CSV export/.test(t.title))).toBe(true);
      // LIKE's wildcards are searched for literally.
      expect((await tasks("?q=%25")).json().total).toBe(0);

      const byNumber = (await tasks("?sort=number&limit=5")).json();
      expect(byNumber.tasks.map((t: { number: number }) => t.number)).toEqual([1, 2, 3, 4, 5]);
      const lowest = (await tasks("?sort=score")).json();
      const lowScores = lowest.tasks.map((t: { score: number }) => t.score);
      expect(lowScores).toEqual([...lowScores].sort((a, b) => a - b));

      const approved = (await tasks("?approved=true")).json();
      const rejected = (await tasks("?approved=false")).json();
      expect(approved.total + rejected.total).toBe(30);
      const human = (await tasks("?needsHuman=true")).json();
      expect(human.tasks.every((t: { needsHuman: boolean }) => t.needsHuman)).toBe(true);

      const csv = await tasks("?format=csv&kind=bug");
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
      expect(csv.headers["content-disposition"]).toContain('filename="acme-widgets-tasks.csv"');
      const lines = csv.body.trim().split("\r\n");
      expect(lines[0]).toBe(
        "rank,number,title,url,score,approved,needs_human,kind,revenue,architect,ux,product,marketing,scored_at,created_at,ask,duplicate_of",
      );
      expect(lines).toHaveLength(bugs.total + 1);
      const viaAccept = await service.server.inject({
        method: "GET",
        url: "/api/repos/acme/widgets/tasks",
        headers: { accept: "text/csv" },
      });
      expect(viaAccept.body.trim().split("\r\n")).toHaveLength(31);
    });

    it("answers bad queries with 400 and the parameter named, unknown repositories with 401/404", async () => {
      github.repoIssues.set("acme/widgets", backlog(3));
      service = await start();
      await install();
      await untilDone();
      for (const [query, word] of [
        ["?sort=popularity", "sort"],
        ["?kind=epic", "kind"],
        ["?limit=0", "limit"],
        ["?approved=maybe", "approved"],
        ["?color=red", "color"],
        ["?cursor=nonsense", "cursor"],
      ] as const) {
        const r = await tasks(query);
        expect({ query, status: r.statusCode, code: r.json().error.code }).toEqual({
          query,
          status: 400,
          code: "invalid_request",
        });
        expect(r.json().error.message).toContain(word);
      }
      // An out-of-range page size says the range, not only "a whole number" (501 is one).
      for (const q of ["?limit=501", "?limit=0", "?limit=-1", "?limit=2.5"])
        expect((await tasks(q)).json().error.message).toMatch(/limit.*whole number from 1 to 500/);
      // A repository the server has never seen is treated like a private one: no sign-in, no answer.
      const unknown = await tasks("", "someone/secret-plans");
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().error.code).toBe("unauthorized");
      expect((await tasks("", "bad..owner!/x")).statusCode).toBe(400);
    });

    it("a private repository's backlog is not shown without sign-in", async () => {
      github.repoIssues.set("acme/secret", backlog(3));
      github.privateRepos.add("acme/secret");
      service = await start();
      await install("acme/secret", true);
      const store = service.backlogStore!;
      for (
        let i = 0;
        i < 400 && BacklogStore.progress(await store.repository("acme/secret")).state !== "done";
        i++
      )
        await new Promise((r) => setTimeout(r, 25));
      const r = await tasks("", "acme/secret");
      expect(r.statusCode).toBe(401);
      expect(r.json().error.message).toContain("sign-in is not configured");
    });
  });

  describe("keeping the backlog current", () => {
    it("a closed issue leaves the board; an edited open one is re-scored and listed with its new title", async () => {
      github.repoIssues.set("acme/widgets", backlog(6));
      service = await start();
      await install();
      await untilDone();
      const event = (action: string, patch: (p: any) => void = () => {}) =>
        // The examples have no `closed` issue: a `reopened` one with its action changed is the same shape.
        payload("issues", action === "closed" ? "reopened" : action, (p) => {
          p.action = action;
          p.repository.owner.login = "acme";
          p.repository.name = "widgets";
          p.repository.full_name = "acme/widgets";
          p.issue.number = 3;
          p.issue.title = "Crash when saving file 3";
          p.issue.body = "It crashes.";
          p.issue.html_url = "https://github.com/acme/widgets/issues/3";
          p.sender.type = "User";
          patch(p);
        });
      await deliver(service, "issues", event("closed"));
      for (let i = 0; i < 200 && (await tasks()).json().total !== 5; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect((await tasks()).json().tasks.map((t: { number: number }) => t.number)).not.toContain(3);

      await deliver(
        service,
        "issues",
        event("edited", (p) => {
          p.action = "edited";
          p.changes = { title: { from: "old" } };
          p.issue.title = "Data loss: saving file 3 deletes the document";
        }),
      );
      for (let i = 0; i < 200 && (await tasks()).json().total !== 6; i++)
        await new Promise((r) => setTimeout(r, 25));
      const row = (await tasks()).json().tasks.find((t: { number: number }) => t.number === 3);
      expect(row.title).toBe("Data loss: saving file 3 deletes the document");
    });

    it("`/score backlog` from a maintainer queues a backfill and replies with the board's address", async () => {
      github.repoIssues.set("acme/widgets", backlog(4));
      github.roles.set("acme/widgets:maintainer", "admin");
      service = await start();
      const comment = payload("issue_comment", "created", (p) => {
        p.repository.owner.login = "acme";
        p.repository.name = "widgets";
        p.repository.full_name = "acme/widgets";
        p.repository.private = false;
        p.issue.number = 1;
        delete p.issue.pull_request;
        p.comment.body = "/score backlog";
        p.comment.user.login = "maintainer";
        p.sender.login = "maintainer";
        p.sender.type = "User";
      });
      await deliver(service, "issue_comment", comment);
      const list = await untilDone();
      expect(list.total).toBe(4);
      await service.queue!.drain();
      const replies = github.commentsOn("acme/widgets#1");
      expect(replies).toHaveLength(1);
      expect(replies[0]!.body).toContain(REPLY_MARKER);
      expect(replies[0]!.body).toContain("/board/acme/widgets");
      expect(replies[0]!.body).toContain("no comment on old issues");
    });
  });

  describe("within GitHub's limits, and resumable", () => {
    it("a re-run sends the stored ETags: unchanged pages answer 304 and nothing is scored again", async () => {
      github.repoIssues.set("acme/widgets", backlog(150));
      service = await start();
      await install();
      const first = await untilDone();
      const runner = service.backfill!;
      const store = service.backlogStore!;
      const scoredAt = first.tasks[0].scoredAt;
      github.requests.length = 0;
      await store.requestBackfill("acme/widgets");
      runner.wake();
      const again = await untilDone();
      expect(again.total).toBe(150);
      const pages = github.requests.filter((r) => r.path === "/repos/acme/widgets/issues");
      expect(pages).toHaveLength(2);
      expect(again.tasks[0].scoredAt).toBe(scoredAt);
    });

    it("stops before the hourly limit runs out and resumes from its cursor after the reset", async () => {
      github.repoIssues.set("acme/widgets", backlog(250));
      service = await start();
      const runner = service.backfill!;
      const store = service.backlogStore!;
      github.rateLimitRemaining = 400; // under the runner's reserve of 500
      github.rateLimitReset = Math.floor(Date.now() / 1000) + 1;
      await install();
      let row = await store.repository("acme/widgets");
      for (let i = 0; i < 400 && !row?.not_before; i++) {
        await new Promise((r) => setTimeout(r, 25));
        row = await store.repository("acme/widgets");
      }
      expect(row!.not_before!.getTime()).toBe(github.rateLimitReset * 1000 + 1000);
      expect(row!.last_error).toContain("rate limit");
      expect(row!.done).toBe(0);
      expect(github.requests.filter((r) => r.path === "/repos/acme/widgets/issues")).toHaveLength(0);

      // After the reset, the next look for work (any instance's) carries on.
      github.rateLimitRemaining = 4999;
      await new Promise((r) => setTimeout(r, row!.not_before!.getTime() - Date.now() + 50));
      runner.wake();
      expect((await untilDone()).total).toBe(250);
    });

    it("obeys retry-after on a secondary limit", async () => {
      github.repoIssues.set("acme/widgets", backlog(20));
      github.faults.push({
        method: "GET",
        path: /^\/repos\/acme\/widgets\/issues$/,
        status: 403,
        headers: { "retry-after": "120" },
        body: { message: "You have exceeded a secondary rate limit" },
      });
      service = await start();
      const store = service.backlogStore!;
      const before = Date.now();
      await install();
      let row = await store.repository("acme/widgets");
      for (let i = 0; i < 400 && !row?.not_before; i++) {
        await new Promise((r) => setTimeout(r, 25));
        row = await store.repository("acme/widgets");
      }
      const wait = row!.not_before!.getTime() - before;
      expect(wait).toBeGreaterThanOrEqual(119_000);
      expect(wait).toBeLessThan(125_000);
      expect(row!.last_error).toContain("120 s");
    });

    it("an instance that dies mid-run is taken over after its lease, from the next page, scoring nothing twice", async () => {
      github.repoIssues.set("acme/widgets", backlog(300));
      service = await start();
      const main = service.backfill!;
      const store = service.backlogStore!;
      await main.stop(); // this instance takes no work: two runners below play two instances
      await store.requestBackfill("acme/widgets", { installationId: INSTALLATION_ID, private: false });
      const deps = main.deps;
      let scored = 0;
      const counting = (d: typeof deps) => ({
        ...d,
        leaseMs: 300,
        score: async (...args: Parameters<typeof d.score>) => {
          scored++;
          return d.score(...args);
        },
      });
      // The first instance "dies" after its first page: it stops renewing and never finishes.
      const dying = new BackfillRunner({
        ...counting(deps),
        github: async (id) => {
          const real = await deps.github(id);
          let pages = 0;
          // The same client (its config reader too), whose second page of issues never answers.
          return Object.assign(Object.create(real) as typeof real, {
            // Keeps Octokit's endpoint (its base URL: the origin the listing's Link may point to).
            request: Object.assign(
              async (route: string, params?: Record<string, unknown>) => {
                if (route.includes("/issues") && ++pages > 1) return new Promise<never>(() => {});
                return real.request(route, params);
              },
              { endpoint: (real.request as unknown as { endpoint: unknown }).endpoint },
            ),
          });
        },
      });
      dying.wake();
      let row = await store.repository("acme/widgets");
      for (let i = 0; i < 400 && row!.done < 100; i++) {
        await new Promise((r) => setTimeout(r, 25));
        row = await store.repository("acme/widgets");
      }
      expect(row!.done).toBe(100);
      expect(scored).toBe(100);
      // A second instance waits for the lease to lapse, then carries on from page 2.
      const second = new BackfillRunner(counting(deps));
      await new Promise((r) => setTimeout(r, 400));
      second.wake();
      await second.idle();
      row = await store.repository("acme/widgets");
      expect(row!.state).toBe("done");
      expect(row!.done).toBe(300);
      expect(scored).toBe(300);
      expect((await tasks()).json().total).toBe(300);
    });

    it("under a model, stops at the installation's daily budget and resumes at midnight UTC", async () => {
      github.repoIssues.set("acme/widgets", backlog(12));
      github.configFiles.set("acme/widgets", "backlog-budget: 5\n");
      service = await start();
      const store = service.backlogStore!;
      await service.backfill!.stop();
      await store.requestBackfill("acme/widgets", { installationId: INSTALLATION_ID, private: false });
      let scored = 0;
      const deps = service.backfill!.deps;
      const clock = () => new Date("2030-01-01T22:00:00.000Z");
      const model = new BackfillRunner({
        ...deps,
        usesModel: true,
        clock,
        score: async (...args: Parameters<typeof deps.score>) => {
          scored++;
          return deps.score(...args);
        },
      });
      model.wake();
      await model.idle();
      const row = await store.repository("acme/widgets");
      expect(scored).toBe(5);
      expect(row!.state).toBe("running");
      expect(row!.not_before!.toISOString()).toBe("2030-01-02T00:00:00.000Z");
      expect(row!.last_error).toContain("daily backlog budget (5 reports a day)");
      // The same day, another instance asking gets nothing more from the budget.
      expect(await store.takeBudget(INSTALLATION_ID, "2030-01-01", 5)).toBe(false);
      expect(await store.takeBudget(INSTALLATION_ID, "2030-01-02", 5)).toBe(true);
    });

    it("two instances asked at once never run one repository together", async () => {
      github.repoIssues.set("acme/widgets", backlog(10));
      service = await start();
      const store = service.backlogStore!;
      await service.backfill!.stop();
      await store.requestBackfill("acme/widgets", { installationId: INSTALLATION_ID });
      const [a, b] = await Promise.all([store.claim("a", 60_000), store.claim("b", 60_000)]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      // Asking again while it runs is the same backfill.
      expect(await store.requestBackfill("acme/widgets")).toBe("running");
    });
  });

  describe("following GitHub's pages safely, and taking turns (issue 33)", () => {
    /** A listed issue as a page of GitHub's answer carries it. */
    const listed = (n: number) => ({
      number: n,
      title: `Crash when saving file ${n}`,
      body: "It crashes.",
      html_url: `https://github.com/acme/widgets/issues/${n}`,
    });
    const issuesPath = /^\/repos\/acme\/widgets\/issues$/;
    const issuePages = (repo = "acme/widgets") =>
      github.requests.filter((r) => r.method === "GET" && r.path === `/repos/${repo}/issues`);

    /** The service's own runner stopped, one repository queued, and a runner of the same deps run until idle. */
    async function backfillOnce(extra: { maxPages?: number } = {}) {
      service = await start();
      const store = service.backlogStore!;
      await service.backfill!.stop();
      await store.requestBackfill("acme/widgets", { installationId: INSTALLATION_ID, private: false });
      const runner = new BackfillRunner({ ...service.backfill!.deps, ...extra });
      runner.wake();
      await runner.idle();
      return (await store.repository("acme/widgets"))!;
    }

    it("follows a Link only on the API's own origin: another host is never sent the token", async () => {
      const stolen: { url: string; authorization: string | undefined }[] = [];
      const evil = createServer((req, res) => {
        stolen.push({ url: req.url ?? "", authorization: req.headers.authorization });
        res.writeHead(200, { "content-type": "application/json" });
        res.end("[]");
      });
      await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
      try {
        const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
        github.repoIssues.set("acme/widgets", backlog(3));
        github.faults.push({
          method: "GET",
          path: issuesPath,
          status: 200,
          headers: { link: `<${evilUrl}/steal?page=2>; rel="next"` },
          body: [listed(1)],
        });
        const row = await backfillOnce();
        expect(stolen).toEqual([]);
        expect(issuePages()).toHaveLength(1);
        expect(row.state).toBe("done");
        expect(row.last_error).toContain(`pointed to ${evilUrl}, not the API`);
        expect(row.last_error).toContain("not followed");
      } finally {
        evil.closeAllConnections();
        await new Promise((r) => evil.close(r));
      }
    });

    it("never lists a page twice: a Link back to the same page stops the listing", async () => {
      github.repoIssues.set("acme/widgets", backlog(3));
      github.faults.push({
        method: "GET",
        path: issuesPath,
        status: 200,
        headers: {
          link: `<${github.url}/api/v3/repos/acme/widgets/issues?state=open&per_page=100>; rel="next"`,
        },
        body: [listed(1)],
        times: 50,
      });
      const row = await backfillOnce();
      expect(issuePages()).toHaveLength(1);
      expect(row.last_error).toContain("already listed");
    });

    it("stops at the page cap (the runner's maxPages) when Link never ends", async () => {
      github.repoIssues.set("acme/widgets", backlog(3));
      for (let page = 1; page <= 8; page++)
        github.faults.push({
          method: "GET",
          path: issuesPath,
          status: 200,
          headers: {
            link: `<${github.url}/api/v3/repos/acme/widgets/issues?state=open&per_page=100&page=${page + 1}>; rel="next"`,
          },
          body: [listed(page)],
        });
      const row = await backfillOnce({ maxPages: 5 });
      expect(issuePages()).toHaveLength(5);
      expect(row.state).toBe("done");
      expect(row.last_error).toContain("stopped after 5 pages");
    });

    it("repositories take turns: a 1-issue repository queued after a 500-issue one waits one page, not the backlog", async () => {
      github.repoIssues.set("acme/big", backlog(500));
      github.repoIssues.set("acme/small", backlog(1));
      service = await start();
      const store = service.backlogStore!;
      await service.backfill!.stop();
      await store.requestBackfill("acme/big", { installationId: INSTALLATION_ID, private: false });
      await store.requestBackfill("acme/small", { installationId: INSTALLATION_ID, private: false });
      const runner = new BackfillRunner(service.backfill!.deps);
      runner.wake();
      await runner.idle();

      // The pages of open issues GitHub was asked for, in order: one of the big repository's, then the small one.
      const order = github.requests
        .filter((r) => r.method === "GET" && /^\/repos\/acme\/[a-z]+\/issues$/.test(r.path))
        .map((r) => r.path.split("/")[3]);
      expect(order).toEqual(["big", "small", "big", "big", "big", "big"]);
      const big = (await store.repository("acme/big"))!;
      const small = (await store.repository("acme/small"))!;
      expect([big.state, big.done, big.last_error]).toEqual(["done", 500, null]);
      expect([small.state, small.done, small.last_error]).toEqual(["done", 1, null]);
      expect(small.finished_at!.getTime()).toBeLessThan(big.finished_at!.getTime());
      expect((await tasks("", "acme/big")).json().total).toBe(500);
    });
  });
}
