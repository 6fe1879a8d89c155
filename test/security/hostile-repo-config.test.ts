import { describe, expect, it, jest } from "@jest/globals";
import { RE2JS } from "re2js";
import { parseRepoConfig } from "../../src/repo-config/repo-config.schema.js";
import {
  appWithStandIn,
  capturingLogger,
  deliver,
  deliverOverHttp,
  payload,
} from "../helpers/app-harness.js";
import { serverWithStandIn } from "../helpers/server-with-stand-in.js";

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

/** 175 characters; compiled, 7,000 instructions and 7 classes of 125,000 code points to case-fold. */
const WIDE = "[\\x{80}-\\x{10FFFF}]{1000}".repeat(7);
/** A 5 MB YAML list: parsed, it once ran the 256 MB heap out of memory. */
const FIVE_MB = "skip-labels:\n" + "  - label-name-x\n".repeat(300_000);
let unique = 0;

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

  it("sizes a pattern from its text: 20 patterns of [\\x{80}-\\x{10FFFF}]{1000} x7 are refused without compiling any, job after job", () => {
    const compile = jest.spyOn(RE2JS, "compile");
    try {
      const file = { "skip-title-patterns": Array.from({ length: 20 }, (_, i) => `${WIDE}${i}`) };
      for (let job = 0; job < 2; job++) {
        const parsed = parseRepoConfig(file);
        expect(parsed.diagnostics[0]!.message).toMatch(/compiles to more than 1000 instructions/);
        expect(parsed.config.trigger).toBe("command");
      }
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it("refuses, uncompiled, character classes too wide to case-fold quickly: [\\x{80}-\\x{10FFFF}]", () => {
    const compile = jest.spyOn(RE2JS, "compile");
    try {
      const parsed = parseRepoConfig({ "skip-title-patterns": ["[\\x{80}-\\x{10FFFF}]".repeat(9)] });
      expect(parsed.diagnostics[0]!.message).toMatch(/character classes too wide .*narrow them/);
      expect(compile).not.toHaveBeenCalled();
      // A narrow class is fine.
      expect(
        parseRepoConfig({ "skip-title-patterns": ["^[a-z0-9_-]+:", "[\\x{4e00}-\\x{9fff}]"] }).diagnostics,
      ).toEqual([]);
    } finally {
      compile.mockRestore();
    }
  });

  it("keeps each verdict, a refusal as much as a compiled pattern: a repeated pattern is compiled at most once", () => {
    const compile = jest.spyOn(RE2JS, "compile");
    try {
      const bad = `(unclosed-${++unique}`;
      const good = `^wip-${unique}\\b`;
      for (let job = 0; job < 3; job++) {
        expect(parseRepoConfig({ "skip-title-patterns": [bad] }).diagnostics[0]!.message).toMatch(
          /not a valid RE2 regular expression/,
        );
        expect(parseRepoConfig({ "skip-title-patterns": [good] }).diagnostics).toEqual([]);
      }
      expect(compile.mock.calls.map((c) => c[0])).toEqual([bad, good]);
      // The cache is bounded (least recently used out): after 1,000 other patterns, `bad` is judged again.
      for (let k = 0; k < 1000; k++) parseRepoConfig({ "skip-title-patterns": [`^lru-${unique}-${k}`] });
      compile.mockClear();
      parseRepoConfig({ "skip-title-patterns": [bad] });
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });

  it("caps skip-labels at 100", () => {
    const parsed = parseRepoConfig({ "skip-labels": Array.from({ length: 101 }, (_, i) => `l${i}`) });
    expect(parsed.diagnostics[0]!.message).toMatch(/skip-labels.*at most 100/);
  });
});

describe("the App meets a hostile repository config", () => {
  const { github, start } = appWithStandIn();

  it("a config over 64 KB is refused unread: no report, and the App stays quiet for that repository", async () => {
    // 300,000 skip-labels: about 5 MB; parsed, it once ran the 256 MB heap out of memory.
    github.configFiles.set(REPO, "skip-labels:\n" + "  - label-name-x\n".repeat(300_000));
    const { logger, lines } = capturingLogger();
    const service = await start({}, undefined, logger);
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

  it("an `_extends` base over 64 KB, in another repository and at another path, is refused unread", async () => {
    github.configFiles.set(REPO, "_extends: acme/base:conf/big.yml\n");
    github.configFiles.set("acme/base:conf/big.yml", FIVE_MB);
    const { logger, lines } = capturingLogger();
    const service = await start({}, undefined, logger);
    for (let n = 1; n <= 2; n++) {
      expect((await deliver(service, "issues", opened(n))).statusCode).toBe(200);
      await service.queue!.drain();
    }
    expect(
      github.requests.filter((r) =>
        decodeURIComponent(r.path).endsWith("/repos/acme/base/contents/conf/big.yml"),
      ),
    ).toHaveLength(2);
    const problems = lines.filter((l) => l.msg === "repository config problem").map((l) => l.problem);
    expect(problems).toEqual([
      expect.stringMatching(
        /draws on acme\/base:conf\/big\.yml .*larger than 64 KB, the most the App reads; the App stays off until it is smaller/,
      ),
      expect.stringMatching(/draws on acme\/base:conf\/big\.yml/),
    ]);
    expect(github.comments).toEqual([]);
    const score = await service.server.inject({
      method: "POST",
      url: "/score-task",
      payload: { task: "Add dark mode" },
    });
    expect(score.statusCode).toBe(200);
  });

  it("an `_extends` chain is capped: at most 5 files, and 128 KB across them", async () => {
    // A chain of 8 files, each small: the sixth is never read.
    github.configFiles.set(REPO, "_extends: acme/c1:a.yml\n");
    for (let k = 1; k <= 8; k++)
      github.configFiles.set(`acme/c${k}:a.yml`, `_extends: acme/c${k + 1}:a.yml\n`);
    const { logger, lines } = capturingLogger();
    const service = await start({}, undefined, logger);
    await deliver(service, "issues", opened(1));
    await service.queue!.drain();
    const read = (repo: string) => github.requests.some((r) => r.path.includes(`/repos/${repo}/contents/`));
    expect([1, 2, 3, 4, 5].map((k) => read(`acme/c${k}`))).toEqual([true, true, true, true, false]);
    expect(lines.find((l) => l.msg === "repository config problem")?.problem).toMatch(
      /draws on more than 5 files through `_extends`.*the App stays off until the chain is shorter/,
    );

    // Three files of 50 KB each: every one under the cap, 150 KB together.
    const padded = (extend: string) => `${extend}\n` + `# ${"x".repeat(98)}\n`.repeat(500);
    github.configFiles.set(REPO, padded("_extends: acme/h1:a.yml"));
    github.configFiles.set("acme/h1:a.yml", padded("_extends: acme/h2:a.yml"));
    github.configFiles.set("acme/h2:a.yml", padded("comment: false"));
    lines.length = 0;
    await deliver(service, "issues", opened(2));
    await service.queue!.drain();
    expect(lines.find((l) => l.msg === "repository config problem")?.problem).toMatch(
      /files it draws on through `_extends` come to more than 128 KB/,
    );
    expect(github.comments).toEqual([]);
  });

  it("20 patterns of [\\x{80}-\\x{10FFFF}]{1000} x7: refused from their text, and a second job compiles nothing", async () => {
    const patterns = Array.from({ length: 20 }, (_, i) => `  - '${WIDE}${i}'\n`).join("");
    github.configFiles.set(REPO, `skip-title-patterns:\n${patterns}`);
    const { logger, lines } = capturingLogger();
    const service = await start({}, undefined, logger);
    const compile = jest.spyOn(RE2JS, "compile");
    try {
      for (let n = 1; n <= 2; n++) {
        await deliver(service, "issues", opened(n));
        await service.queue!.drain();
      }
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
    expect(lines.filter((l) => l.msg === "repository config problem").map((l) => l.problem)).toEqual([
      expect.stringMatching(/skip-title-patterns.*compiles to more than 1000 instructions/),
      expect.stringMatching(/skip-title-patterns.*compiles to more than 1000 instructions/),
    ]);
    expect(github.comments).toEqual([]);
  });

  it("40 patterns like (|.){999}x are refused: the issue is not matched against them, and the file can be fixed", async () => {
    github.configFiles.set(
      REPO,
      "skip-title-patterns:\n" + Array.from({ length: 40 }, () => "  - '(|.){999}x'\n").join(""),
    );
    const service = await start();
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
  const { github, start } = appWithStandIn();

  const fromInstallation = (installation: number, n: number) => {
    const body = opened(n);
    body.installation.id = installation;
    body.repository.owner.login = `owner${installation}`;
    body.repository.full_name = `owner${installation}/Hello-World`;
    return body;
  };

  it("one installation's burst gets 503 queue_full past its cap, and another installation is still accepted and served", async () => {
    github.delayMs = 200; // every GitHub call is slow: jobs wait in the queue
    const service = await start({
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
  const app = serverWithStandIn({
    prepare: (github) =>
      void github.configFiles.set(REPO, "skip-labels:\n" + "  - label-name-x\n".repeat(300_000)),
  });
  const { github } = app;

  it("stays up under its 256 MB heap, issue after issue, and keeps answering the REST API", async () => {
    for (let n = 1; n <= 3; n++) {
      const res = await deliverOverHttp(app.server.base, "issues", opened(n), `big-config-${n}`);
      expect(res.status).toBe(200);
    }
    await waitFor(
      () => github.requests.filter((r) => r.path.includes("/contents/")).length >= 3,
      "three config reads",
    );
    await waitFor(() => /larger than 64 KB/.test(app.server.output()), "the config diagnostic in the log");
    const res = await fetch(`${app.server.base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Add dark mode" }),
    });
    expect(res.status).toBe(200);
    expect(github.comments).toEqual([]);
  }, 60_000);

  it("stays up when the 5 MB file is an `_extends` base in another repository, at another path", async () => {
    github.configFiles.set(REPO, "_extends: acme/base:conf/big.yml\n");
    github.configFiles.set("acme/base:conf/big.yml", FIVE_MB);
    for (let n = 4; n <= 6; n++) {
      const res = await deliverOverHttp(app.server.base, "issues", opened(n), `big-extends-${n}`);
      expect(res.status).toBe(200);
    }
    await waitFor(
      () =>
        github.requests.filter((r) => decodeURIComponent(r.path).endsWith("/contents/conf/big.yml")).length >=
        3,
      "three reads of the base",
    );
    await waitFor(
      () => /draws on acme\/base:conf\/big\.yml/.test(app.server.output()),
      "the base's diagnostic in the log",
    );
    const res = await fetch(`${app.server.base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Add dark mode" }),
    });
    expect(res.status).toBe(200);
    expect(app.server.output()).not.toMatch(/heap out of memory/);
    expect(github.comments).toEqual([]);
  }, 60_000);
});
