import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "@jest/globals";
import { bufferedDestination, createLogger, LOG_FLUSH_INTERVAL_MS } from "../../src/config/create-logger.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { buildServer } from "../../src/http/build-server.js";
import { createScorer } from "../../src/llm/create-scorer.js";
import { testBuildDir } from "../helpers/server-build.js";

function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n").filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(level, stream), lines };
}

async function serverWith(level = "info") {
  const { logger, lines } = capture(level);
  const app = await buildServer({
    scorer: createScorer({ scorer: "offline" }).scorer,
    policy: DEFAULT_APPROVAL_POLICY,
    loggerInstance: logger,
    plugins: [
      (scope) => {
        scope.get("/warns", async (request) => {
          request.log.warn({ why: "a test" }, "something to look at");
          request.log.debug("too fine for info");
          return { ok: true };
        });
      },
    ],
  });
  return { app, lines };
}

describe("request logs", () => {
  it("write one access line per request, carrying the request id the client sees", async () => {
    const { app, lines } = await serverWith();
    const res = await app.inject({ method: "POST", url: "/score-task", payload: { task: "Add CSV export" } });
    expect(res.statusCode).toBe(200);
    await app.close(); // the lines still held are written when the server closes
    const access = lines.filter((l) => l.msg === "request");
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      reqId: res.headers["x-request-id"],
      method: "POST",
      url: "/score-task",
      status: 200,
    });
  });

  it("write the lines within the flush interval, each stamped with the moment its request ended", async () => {
    const { app, lines } = await serverWith();
    const before = Date.now();
    const first = await app.inject({
      method: "POST",
      url: "/score-task?x=1",
      payload: { task: "Add CSV export" },
    });
    const between = Date.now();
    await new Promise((r) => setTimeout(r, 30));
    const second = await app.inject({ method: "GET", url: "/nowhere" });
    const after = Date.now();
    // Nothing is written until the batch is; then both lines arrive, in order, with their own times.
    for (let waited = 0; lines.length < 2 && waited < 2_000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    const access = lines.filter((l) => l.msg === "request");
    expect(access.map((l) => [l.reqId, l.url, l.status])).toEqual([
      [first.headers["x-request-id"], "/score-task", 200],
      [second.headers["x-request-id"], "/nowhere", 404],
    ]);
    const [t1, t2] = access.map((l) => l.time as number);
    expect(t1).toBeGreaterThanOrEqual(before);
    expect(t1).toBeLessThanOrEqual(between);
    expect(t2).toBeGreaterThanOrEqual(between + 30);
    expect(t2).toBeLessThanOrEqual(after);
    await app.close();
  });

  it("write the lines still held when the process exits without closing the server (a crash)", () => {
    const script = `
      import { createLogger } from "./src/config/create-logger.js";
      import { DEFAULT_APPROVAL_POLICY } from "./src/core/approval.js";
      import { buildServer } from "./src/http/build-server.js";
      import { createScorer } from "./src/llm/create-scorer.js";
      const app = await buildServer({
        scorer: createScorer({ scorer: "offline" }).scorer,
        policy: DEFAULT_APPROVAL_POLICY,
        loggerInstance: createLogger("info"),
      });
      for (let i = 0; i < 3; i++) await app.inject({ method: "POST", url: "/score-task", payload: { task: "Add CSV export " + i } });
      throw new Error("a crash after three requests");
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      // The test build, where ./src/… is compiled.
      cwd: testBuildDir(),
      encoding: "utf8",
    });
    expect(run.status).not.toBe(0);
    const access = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "request");
    expect(access.map((l) => l.status)).toEqual([200, 200, 200]);
  });

  it("write no access lines when the level is above info", async () => {
    const { app, lines } = await serverWith("warn");
    expect(
      (await app.inject({ method: "POST", url: "/score-task", payload: { task: "Add CSV export" } }))
        .statusCode,
    ).toBe(200);
    await app.close();
    expect(lines.filter((l) => l.msg === "request")).toEqual([]);
  });

  it("bind the request id to a route's own warnings, and drop lines below the level", async () => {
    const { app, lines } = await serverWith();
    const res = await app.inject({
      method: "GET",
      url: "/warns",
      headers: { "x-request-id": "req-abc-123" },
    });
    expect(res.statusCode).toBe(200);
    const warning = lines.find((l) => l.msg === "something to look at");
    expect(warning).toMatchObject({ reqId: "req-abc-123", why: "a test", level: 40 });
    expect(lines.some((l) => l.msg === "too fine for info")).toBe(false);
    await app.close();
  });

  it("write a route's debug lines when the level asks for them", async () => {
    const { app, lines } = await serverWith("debug");
    await app.inject({ method: "GET", url: "/warns", headers: { "x-request-id": "req-abc-456" } });
    expect(lines.find((l) => l.msg === "too fine for info")).toMatchObject({
      reqId: "req-abc-456",
      level: 20,
    });
    await app.close();
  });

  // The id and the count come from fastify's log controller when the server has a logger and from an onResponse
  // hook when it has none: both ways, every answer carries its id and every request is counted once.
  it.each([
    ["with a logger", true],
    ["without a logger", false],
  ])("put the request id on every answer and count each request once, %s", async (_name, withLogger) => {
    const app = await buildServer({
      scorer: createScorer({ scorer: "offline" }).scorer,
      policy: DEFAULT_APPROVAL_POLICY,
      ...(withLogger ? { loggerInstance: capture().logger } : { logger: false }),
    });
    const ok = await app.inject({ method: "POST", url: "/score-task", payload: { task: "Add CSV export" } });
    const wrongType = await app.inject({
      method: "POST",
      url: "/score-task",
      headers: { "content-type": "text/plain" },
      payload: "Add CSV export",
    });
    const missing = await app.inject({ method: "GET", url: "/nowhere" });
    expect([ok.statusCode, wrongType.statusCode, missing.statusCode]).toEqual([200, 415, 404]);
    for (const res of [ok, wrongType, missing])
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const metrics = (await app.inject({ method: "GET", url: "/metrics" })).body;
    for (const series of [
      'method="POST",route="/score-task",status="200"',
      'method="POST",route="/score-task",status="415"',
      'method="GET",route="(no route)",status="404"',
    ])
      expect(metrics).toContain(`task_scorer_http_requests_total{${series}} 1\n`);
    await app.close();
  });
});

describe("the buffered log destination", () => {
  const dir = mkdtempSync(join(tmpdir(), "ts-log-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a quiet service's lines out within its flush interval, without waiting for the buffer to fill", async () => {
    const file = join(dir, "service.log");
    const logger = createLogger("info", bufferedDestination(file));
    logger.info({ n: 1 }, "a single line");
    await new Promise((r) => setTimeout(r, LOG_FLUSH_INTERVAL_MS * 4));
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["a single line"]);
  });
});
