import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import type { Service } from "../../src/compose-service.js";
import { parseRepoConfig } from "../../src/app/repo-config.schema.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import {
  PRIVATE_KEY,
  capturingLogger,
  deliver,
  payload,
  sign,
  startService,
} from "../helpers/app-harness.js";
import { npmStart, type NpmStart } from "../helpers/npm-start.js";

/**
 * A repository's `.github/task-scorer.yml` is written by whoever controls that repository: a tenant.
 * Nothing in it may take the process down or hold the event loop for the other tenants.
 */
const REPO = "Codertocat/Hello-World";

function opened(n: number, title = "Add CSV export to the reports page") {
  return payload("issues", "opened", (p) => {
    p.issue.number = n;
    p.issue.title = title;
    p.issue.body = "Users copy tables by hand. Add an Export CSV button.";
  });
}

async function waitFor(check: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("repository config limits (schema)", () => {
  it("refuses more than 20 title patterns before compiling any, and patterns over 200 characters", () => {
    const many = parseRepoConfig({ "skip-title-patterns": Array.from({ length: 21 }, (_, i) => `^wip${i}`) });
    expect(many.diagnostics[0]!.message).toMatch(/skip-title-patterns.*at most 20 patterns/);
    expect(many.config["skip-title-patterns"]).toEqual([]);
    const long = parseRepoConfig({ "skip-title-patterns": ["a".repeat(201)] });
    expect(long.diagnostics[0]!.message).toMatch(/at most 200 characters/);
  });

  it("refuses a short pattern whose compiled program is huge: (|.){999}x", () => {
    const parsed = parseRepoConfig({ "skip-title-patterns": ["(|.){999}x"] });
    expect(parsed.diagnostics[0]!.message).toMatch(/compiles to more than 1000 instructions/);
    // A narrowing list that cannot be read: only `/score` scores, nothing runs the pattern.
    expect(parsed.config.trigger).toBe("command");
    // Ordinary patterns are fine.
    expect(parseRepoConfig({ "skip-title-patterns": ["^wip\\b", "^(chore|deps)\\("] }).diagnostics).toEqual(
      [],
    );
  });

  it("caps skip-labels at 100", () => {
    const parsed = parseRepoConfig({ "skip-labels": Array.from({ length: 101 }, (_, i) => `l${i}`) });
    expect(parsed.diagnostics[0]!.message).toMatch(/skip-labels.*at most 100/);
  });
});

describe("the App meets a hostile repository config", () => {
  let github: FakeGitHub;
  let service: Service | undefined;
  beforeAll(async () => {
    github = await startFakeGitHub();
  });
  afterAll(async () => github.close());
  afterEach(async () => {
    await service?.close();
    service = undefined;
    github.reset();
  });

  it("a config over 64 KB is refused unread: no report, and the App stays quiet for that repository", async () => {
    // 300,000 skip-labels: about 5 MB; parsed, it once ran the 256 MB heap out of memory.
    github.configFiles.set(REPO, "skip-labels:\n" + "  - label-name-x\n".repeat(300_000));
    const { logger, lines } = capturingLogger();
    service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, undefined, logger);
    const res = await deliver(service, "issues", opened(1));
    expect(res.statusCode).toBe(200);
    await service.queue!.drain();
    expect(github.requests.some((r) => r.path.includes("/contents/"))).toBe(true);
    expect(lines.find((l) => l.msg === "repository config problem")?.problem).toMatch(
      /is larger than 64 KB, the most the App reads; the App stays off/,
    );
    expect(github.comments).toEqual([]);
    // The REST API is still there for everyone else.
    const score = await service.server.inject({
      method: "POST",
      url: "/score-task",
      payload: { task: "Add dark mode" },
    });
    expect(score.statusCode).toBe(200);
  });

  it("40 patterns like (|.){999}x are refused: the issue is not matched against them, and the file can be fixed", async () => {
    github.configFiles.set(
      REPO,
      "skip-title-patterns:\n" + Array.from({ length: 40 }, () => "  - '(|.){999}x'\n").join(""),
    );
    service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http" });
    await deliver(service, "issues", opened(2, "a".repeat(200)));
    await service.queue!.drain();
    // Fails closed: automatic scoring is off until the list is fixed (nothing silently scored or skipped).
    expect(github.comments).toEqual([]);
    github.configFiles.set(REPO, "skip-title-patterns: ['^wip\\b']\n");
    await deliver(service, "issues", opened(3));
    await service.queue!.drain();
    expect(github.comments.map((c) => c.issue)).toEqual([`${REPO}#3`]);
  });
});

describe("the queue is shared fairly between installations", () => {
  let github: FakeGitHub;
  let service: Service | undefined;
  beforeAll(async () => {
    github = await startFakeGitHub();
  });
  afterAll(async () => github.close());
  afterEach(async () => {
    await service?.close();
    service = undefined;
    github.reset();
  });

  const fromInstallation = (installation: number, n: number) => {
    const body = opened(n);
    body.installation.id = installation;
    body.repository.owner.login = `owner${installation}`;
    body.repository.full_name = `owner${installation}/Hello-World`;
    return body;
  };

  it("one installation's burst gets 503 queue_full past its cap, and another installation is still accepted and served", async () => {
    github.delayMs = 200; // every GitHub call is slow: jobs wait in the queue
    service = await startService({
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      APP_QUEUE_CONCURRENCY: "1",
      APP_QUEUE_MAX_PENDING: "5",
      APP_QUEUE_MAX_PENDING_PER_INSTALLATION: "2",
    });
    const statuses: number[] = [];
    for (let n = 1; n <= 5; n++)
      statuses.push((await deliver(service, "issues", fromInstallation(7, n))).statusCode);
    // One runs, two wait; the rest of installation 7's burst is refused, not acknowledged and dropped.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    const refused = await deliver(service, "issues", fromInstallation(7, 6));
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      error: { code: "queue_full", message: expect.stringMatching(/installation.*redeliver/) },
    });
    expect(refused.headers["retry-after"]).toBe("60");
    // Another tenant is not locked out by installation 7.
    const other = await deliver(service, "issues", fromInstallation(8, 1));
    expect(other.statusCode).toBe(200);
    await service.queue!.drain();
    expect(github.comments.some((c) => c.issue === "owner8/Hello-World#1")).toBe(true);
    // A refused delivery can be redelivered (same id) once there is room.
    const again = await deliver(service, "issues", fromInstallation(7, 6), "redelivered-6");
    expect(again.statusCode).toBe(200);
  }, 60_000);
});

describe("npm start: a 5 MB repository config", () => {
  let github: FakeGitHub;
  let server: NpmStart;
  beforeAll(async () => {
    github = await startFakeGitHub();
    github.configFiles.set(REPO, "skip-labels:\n" + "  - label-name-x\n".repeat(300_000));
    server = await npmStart({
      APP_ID: "123",
      PRIVATE_KEY,
      WEBHOOK_SECRET: "test-webhook-secret",
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      SCORER: "offline",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await github?.close();
  });

  it("stays up under its 256 MB heap, issue after issue, and keeps answering the REST API", async () => {
    for (let n = 1; n <= 3; n++) {
      const body = JSON.stringify(opened(n));
      const res = await fetch(`${server.base}/api/github/webhooks`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "issues",
          "x-github-delivery": `big-config-${n}`,
          "x-hub-signature-256": sign(body),
        },
        body,
      });
      expect(res.status).toBe(200);
    }
    await waitFor(
      () => github.requests.filter((r) => r.path.includes("/contents/")).length >= 3,
      "three config reads",
    );
    await waitFor(() => /larger than 64 KB/.test(server.output()), "the config diagnostic in the log");
    const res = await fetch(`${server.base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Add dark mode" }),
    });
    expect(res.status).toBe(200);
    expect(github.comments).toEqual([]);
  }, 60_000);
});
