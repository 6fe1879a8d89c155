import { describe, expect, it } from "@jest/globals";
import type { FastifyRequest } from "fastify";
import type { Service } from "../../src/compose-service.js";
import { buildServer } from "../../src/http/build-server.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import type { FakeIssue } from "../helpers/fake-github.js";
import { appWithStandIn, deliver, payload } from "../helpers/app-harness.js";
import { backlogApi } from "../helpers/backlog-api.js";

/**
 * Issue 33, the backlog's edges as a security review met them, through the App and the tasks API with a
 * stand-in GitHub and the embedded database: a repository made private (by a `repository` event, or any event
 * saying so) hides its board at once; renamed, transferred or deleted, its backlog follows; the tasks API
 * and its CSV are rate-limited per client; a crafted cursor is a 400, not a 500.
 */
const app = appWithStandIn({ storage: "pglite" });
const { github } = app;
/** The service the test started (closed after it by the harness). */
let service: Service;
const start = () => app.start();
const { tasks, untilDone, install } = backlogApi(() => app.service, "acme/widgets");

function backlog(n: number): FakeIssue[] {
  return Array.from({ length: n }, (_, i) => ({
    number: i + 1,
    title: i % 2 ? `Add CSV export for report ${i + 1}` : `Crash when saving file ${i + 1}`,
    body: i % 2 ? "Twelve customers asked for it." : "Steps:\n1. Save\n\nActual: TypeError.",
  }));
}

describe("the repository's visibility and name follow GitHub (issue 33)", () => {
  /** An event for acme/pub as GitHub sends it once the repository is `private` (and maybe renamed). */
  const issueEvent = (number: number, title: string, isPrivate: boolean, fullName = "acme/pub") =>
    payload("issues", "opened", (p) => {
      const [owner, name] = fullName.split("/");
      p.repository.id = 4242;
      p.repository.owner.login = owner;
      p.repository.name = name;
      p.repository.full_name = fullName;
      p.repository.private = isPrivate;
      p.issue.number = number;
      p.issue.title = title;
      p.issue.body = "Steps to reproduce:\n1. Open it\n\nActual: it crashes.";
      p.issue.html_url = `https://github.com/${fullName}/issues/${number}`;
      p.sender.type = "User";
    });
  const repositoryEvent = (
    action: string,
    fullName: string,
    patch: (p: any) => void = () => {},
    isPrivate = action === "privatized",
  ) =>
    payload("repository", "privatized", (p) => {
      const [owner, name] = fullName.split("/");
      p.action = action;
      p.repository.id = 4242;
      p.repository.owner.login = owner;
      p.repository.name = name;
      p.repository.full_name = fullName;
      p.repository.private = isPrivate;
      p.sender.type = "User";
      patch(p);
    });
  const installPublic = async () => {
    github.repoIssues.set("acme/pub", backlog(4));
    service = await start();
    await install("acme/pub");
    return untilDone("acme/pub");
  };
  /** Waits until `read` answers what `done` wants (events are handled, and jobs run, in the background). */
  const until = async (read: () => Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await read()); i++) await new Promise((r) => setTimeout(r, 25));
  };

  it("made private, its tasks need sign-in at once, new ones included; made public again, they are public", async () => {
    expect((await installPublic()).total).toBe(4);
    expect(
      (await deliver(service!, "repository", repositoryEvent("privatized", "acme/pub"))).statusCode,
    ).toBe(200);
    const hidden = await tasks("", "acme/pub");
    expect(hidden.statusCode).toBe(401);
    expect(hidden.json().error.code).toBe("unauthorized");
    const csv = await tasks("?format=csv", "acme/pub");
    expect(csv.statusCode).toBe(401);

    // A new issue of the now private repository is stored, and shown to no one anonymous.
    await deliver(service!, "issues", issueEvent(90, "NEWSECRET launch plan crashes", true));
    await service.queue!.drain();
    const search = await tasks("?q=NEWSECRET", "acme/pub");
    expect(search.statusCode).toBe(401);
    expect(search.body).not.toContain("NEWSECRET");

    await deliver(service!, "repository", repositoryEvent("publicized", "acme/pub"));
    const shown = await tasks("?q=NEWSECRET", "acme/pub");
    expect(shown.statusCode).toBe(200);
    expect(shown.json().tasks.map((t: { title: string }) => t.title)).toEqual([
      "NEWSECRET launch plan crashes",
    ]);
  });

  it("any event that says the repository is private hides it, without a `repository` event", async () => {
    await installPublic();
    await deliver(service!, "issues", issueEvent(91, "NEWSECRET pricing", true));
    await until(async () => (await tasks("", "acme/pub")).statusCode === 401);
    expect((await tasks("?q=NEWSECRET", "acme/pub")).statusCode).toBe(401);
  });

  it("renamed, then transferred: the backlog follows to the new name; deleted, it is gone", async () => {
    await installPublic();
    // An event gives the backlog the repository's GitHub id (the key a rename keeps).
    await deliver(service!, "issues", issueEvent(92, "Crash on start", false));
    await until(async () => (await tasks("", "acme/pub")).json().total === 5);

    await deliver(
      service!,
      "repository",
      repositoryEvent(
        "renamed",
        "acme/renamed",
        (p) => (p.changes = { repository: { name: { from: "pub" } } }),
      ),
    );
    const renamed = await tasks("", "acme/renamed");
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ repository: "acme/renamed", total: 5 });
    expect((await tasks("", "acme/pub")).statusCode).toBe(401);

    await deliver(
      service!,
      "repository",
      repositoryEvent(
        "transferred",
        "Other-Org/renamed",
        (p) => (p.changes = { owner: { from: { organization: { login: "acme" } } } }),
      ),
    );
    const moved = await tasks("", "other-org/renamed");
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ repository: "Other-Org/renamed", total: 5 });
    expect((await tasks("", "acme/renamed")).statusCode).toBe(401);

    // A rename whose own event never arrived: the next event names the repository by its id.
    await deliver(service!, "issues", issueEvent(93, "Crash on exit", false, "Other-Org/final"));
    await until(async () => (await tasks("", "other-org/final")).statusCode === 200);
    expect((await tasks("", "other-org/final")).json().repository).toBe("Other-Org/final");

    await deliver(service!, "repository", repositoryEvent("deleted", "Other-Org/final"));
    const gone = await tasks("", "other-org/final");
    expect(gone.statusCode).toBe(401);
    expect(await service.backlogStore!.repository("other-org/final")).toBeUndefined();
  });
});

describe("per-client rate limits (issue 33)", () => {
  it("CSV downloads: 429 rate_limited with Retry-After and a sentence once an address has had its share; others still served", async () => {
    github.repoIssues.set("acme/widgets", backlog(3));
    service = await start();
    await install();
    await untilDone();
    const csvFrom = (remoteAddress: string) =>
      service.server.inject({
        method: "GET",
        url: "/api/repos/acme/widgets/tasks?format=csv",
        remoteAddress,
      });
    for (let i = 0; i < 10; i++) expect((await csvFrom("203.0.113.7")).statusCode).toBe(200);
    const refused = await csvFrom("203.0.113.7");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.json().error.message).toMatch(
      /^Too many CSV downloads from this address: at most 10 a minute\. Try again in \d+ s\.$/,
    );
    // Another address, and the same address's JSON pages, are not held back by it.
    expect((await csvFrom("198.51.100.2")).statusCode).toBe(200);
    const page = await service.server.inject({
      method: "GET",
      url: "/api/repos/acme/widgets/tasks",
      remoteAddress: "203.0.113.7",
    });
    expect(page.statusCode).toBe(200);
  });
});

describe("a crafted cursor (issue 33)", () => {
  it("an offset no list has is a 400 naming the cursor, not a 500", async () => {
    github.repoIssues.set("acme/widgets", backlog(3));
    service = await start();
    await install();
    await untilDone();
    for (const crafted of ['{"o":1e20}', '{"o":-1}', '{"o":2.5}', '{"o":"9"}']) {
      const r = await tasks(`?cursor=${Buffer.from(crafted).toString("base64url")}`);
      expect({ crafted, status: r.statusCode, code: r.json().error.code }).toEqual({
        crafted,
        status: 400,
        code: "invalid_request",
      });
      expect(r.json().error.message).toBe(
        "cursor is not one this server gave: pass the nextCursor of the previous page, or leave it out to start over.",
      );
    }
  });
});

describe("the tasks API's per-client limit, signed in or not (issue 33)", () => {
  it("counts a signed-in user's requests as theirs, wherever they come from, and anyone else's by address", async () => {
    // Without storage the route answers 503 after the limit's check: the limit alone is what is seen here.
    const users = new Map([["mona", "7"]]);
    const server = await buildServer({
      scorer: offlineScorer,
      policy: DEFAULT_APPROVAL_POLICY,
      backlog: {
        access: {
          check: async () => "unauthenticated",
          userOf: (request: FastifyRequest) => users.get(String(request.headers["x-test-user"] ?? "")),
        },
        rateLimit: { json: 2, csv: 1 },
      },
    });
    try {
      const get = (remoteAddress: string, user?: string, csv = false) =>
        server.inject({
          method: "GET",
          url: `/api/repos/acme/widgets/tasks${csv ? "?format=csv" : ""}`,
          remoteAddress,
          headers: user ? { "x-test-user": user } : {},
        });
      expect((await get("203.0.113.1", "mona")).statusCode).toBe(503);
      expect((await get("203.0.113.2", "mona")).statusCode).toBe(503);
      const refused = await get("203.0.113.3", "mona");
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
      expect(refused.json().error).toEqual({
        code: "rate_limited",
        message: expect.stringMatching(
          /^Too many backlog requests by your GitHub account: at most 2 a minute\. Try again in \d+ s\.$/,
        ),
      });
      // Anonymous visitors from that address still have their own share; then theirs runs out too.
      expect((await get("203.0.113.3")).statusCode).toBe(503);
      expect((await get("203.0.113.3")).statusCode).toBe(503);
      expect((await get("203.0.113.3")).json().error.message).toMatch(
        /^Too many backlog requests from this address/,
      );
      // CSV has its own, smaller share.
      expect((await get("203.0.113.9", undefined, true)).statusCode).toBe(503);
      expect((await get("203.0.113.9", undefined, true)).statusCode).toBe(429);
    } finally {
      await server.close();
    }
  });
});
