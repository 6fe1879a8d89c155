import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { FastifyInstance } from "fastify";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { ScorerTimeoutError, ScorerUnavailableError, ScorerFailedError } from "../../src/core/errors.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { ScoreReportSchema } from "../../src/core/score-report.schema.js";
import type { Scorer } from "../../src/core/scorer.js";
import { buildServer } from "../../src/http/build-server.js";

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});
afterAll(async () => {
  await app.close();
});

async function post(
  body: string | Buffer,
  headers: Record<string, string> = { "content-type": "application/json" },
) {
  const res = await fetch(`${base}/score-task`, { method: "POST", headers, body });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text ? (JSON.parse(text) as Record<string, any>) : undefined,
  };
}

function expectError(
  res: { status: number; text: string; json?: Record<string, any> | undefined; headers: Headers },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.json?.error?.code).toBe(code);
  expect(typeof res.json?.error?.message).toBe("string");
  expect(res.json!.error.message.length).toBeGreaterThan(10);
  expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
}

describe("POST /score-task: happy path", () => {
  it("returns a full report, field by field", async () => {
    const before = Date.now();
    const res = await post(
      JSON.stringify({ task: "Add Stripe checkout", description: "Let free users upgrade to Pro", extra: 1 }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const report = res.json!;
    expect(Object.keys(report)).toEqual(["task", "description", "consensus", "expertScores", "reading"]);
    expect(report.reading).toMatchObject({ calibration: null, language: "en" });
    expect(["bug", "feature", "question", "docs", "refactor", "chore", "junk"]).toContain(
      report.reading.kind,
    );
    expect(report.task).toBe("Add Stripe checkout");
    expect(report.description).toBe("Let free users upgrade to Pro");
    expect(report.expertScores.map((e: any) => e.expert)).toEqual([
      "Revenue Expert",
      "Technical Architect",
      "UX Designer",
      "Product Manager",
      "Marketing Strategist",
    ]);
    expect(report.expertScores.map((e: any) => e.icon)).toEqual([
      "💼",
      "\u{1F3D7}\u{FE0F}",
      "🎨",
      "📊",
      "📢",
    ]);
    const scores: number[] = report.expertScores.map((e: any) => e.score);
    for (const s of scores) expect(Number.isInteger(s) && s >= 1 && s <= 10).toBe(true);
    for (const e of report.expertScores) expect(e.reasoning.length).toBeGreaterThan(20);
    expect(report.consensus.avgScore).toBe(scores.reduce((a, b) => a + b, 0) / 5);
    expect(report.consensus.minScore).toBe(Math.min(...scores));
    expect(report.consensus.maxScore).toBe(Math.max(...scores));
    expect(typeof report.consensus.approved).toBe("boolean");
    expect(report.consensus.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const t = Date.parse(report.consensus.timestamp);
    expect(t).toBeGreaterThanOrEqual(before - 1000);
    expect(t).toBeLessThanOrEqual(Date.now() + 1000);
    expect(ScoreReportSchema.safeParse(report).success).toBe(true);
  });

  it("echoes task and description exactly, and treats a missing or null description as empty", async () => {
    const spaced = await post(
      JSON.stringify({ task: "  Add dark mode \n", description: "\tWith a toggle.  " }),
    );
    expect(spaced.json!.task).toBe("  Add dark mode \n");
    expect(spaced.json!.description).toBe("\tWith a toggle.  ");
    expect((await post(JSON.stringify({ task: "Add dark mode" }))).json!.description).toBe("");
    expect((await post(JSON.stringify({ task: "Add dark mode", description: null }))).json!.description).toBe(
      "",
    );
  });

  it("accepts the limits exactly: 256-character task, 65,536-character description", async () => {
    const res = await post(JSON.stringify({ task: "t".repeat(256), description: "d".repeat(65_536) }));
    expect(res.status).toBe(200);
    // Characters are code points: 256 emoji are 256 characters.
    expect((await post(JSON.stringify({ task: "🎉".repeat(256) }))).status).toBe(200);
  });

  it("gives the same scores and reasoning for the same request; only the timestamp may differ", async () => {
    const body = JSON.stringify({
      task: "Add Stripe checkout",
      description: "Let free users upgrade to Pro",
    });
    const a = (await post(body)).json!;
    const b = (await post(body)).json!;
    expect(b.expertScores).toEqual(a.expertScores);
    expect({ ...b.consensus, timestamp: 0 }).toEqual({ ...a.consensus, timestamp: 0 });
  });

  it("echoes a client's X-Request-Id and replaces one that is not an id", async () => {
    const headers = { "content-type": "application/json", "x-request-id": "abc-123" };
    expect((await post(JSON.stringify({ task: "x y" }), headers)).headers.get("x-request-id")).toBe(
      "abc-123",
    );
    const bad = await post(JSON.stringify({ task: "x y" }), { ...headers, "x-request-id": "a b <script>" });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("accepts application/json with a charset", async () => {
    expect(
      (await post(JSON.stringify({ task: "x y" }), { "content-type": "application/json; charset=utf-8" }))
        .status,
    ).toBe(200);
  });
});

describe("POST /score-task: every error row of the contract", () => {
  it.each([
    ["not JSON", "{task: 'x'"],
    ["truncated JSON", '{"task": "x"'],
    ["an empty body", ""],
  ])("400 invalid_json for %s", async (_name, body) => {
    expectError(await post(body), 400, "invalid_json");
  });

  it("400 invalid_json for invalid UTF-8", async () => {
    expectError(
      await post(Buffer.from([0x7b, 0x22, 0x74, 0x61, 0x73, 0x6b, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
      400,
      "invalid_json",
    );
  });

  it.each([
    ["an array", "[1,2]"],
    ["a string", '"task"'],
    ["null", "null"],
    ["a missing task", '{"description":"x"}'],
    ["an empty task", '{"task":""}'],
    ["a whitespace task", '{"task":"  \\n\\t "}'],
    ["a numeric task", '{"task":42}'],
    ["a task that is an object", '{"task":{"a":1}}'],
    ["a numeric description", '{"task":"x","description":5}'],
    ["a description that is an array", '{"task":"x","description":["a"]}'],
    ["a 257-character task", JSON.stringify({ task: "t".repeat(257) })],
    ["a 65,537-character description", JSON.stringify({ task: "t", description: "d".repeat(65_537) })],
  ])("400 invalid_request for %s", async (_name, body) => {
    const res = await post(body);
    expectError(res, 400, "invalid_request");
  });

  it("names the failing field", async () => {
    const res = await post('{"task":"x","description":5}');
    expect(res.json!.error.message).toMatch(/description/);
    expect(res.json!.error.details.issues[0].field).toBe("description");
  });

  it("404 not_found for an unknown path", async () => {
    const res = await fetch(`${base}/nope`);
    const json = (await res.json()) as any;
    expect(res.status).toBe(404);
    expect(json.error.code).toBe("not_found");
  });

  it.each(["GET", "PUT", "DELETE", "PATCH"])(
    "405 method_not_allowed with Allow: POST for %s",
    async (method) => {
      const res = await fetch(`${base}/score-task`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(((await res.json()) as any).error.code).toBe("method_not_allowed");
    },
  );

  it("413 payload_too_large for a 5 MB body, refused from its Content-Length before it is read", async () => {
    const size = 5 * 1024 * 1024;
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}/score-task`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(size) },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      // Send only the start: the answer must not wait for the rest.
      req.write('{"task":"' + "a".repeat(1000));
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body).error.code).toBe("payload_too_large");
  });

  it("413 payload_too_large for a chunked body over 4 MiB", async () => {
    const res = await fetch(`${base}/score-task`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(
            new TextEncoder().encode(JSON.stringify({ task: "x", description: "a".repeat(4_300_000) })),
          );
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it.each([
    ["text/plain", '{"task":"x"}'],
    ["application/x-www-form-urlencoded", "task=x"],
    ["multipart/form-data; boundary=x", "--x--"],
  ])("415 unsupported_media_type for %s", async (type, body) => {
    expectError(await post(body, { "content-type": type }), 415, "unsupported_media_type");
  });

  it("415 unsupported_media_type without a Content-Type", async () => {
    const res = await fetch(`${base}/score-task`, {
      method: "POST",
      body: new Uint8Array(Buffer.from('{"task":"x"}')),
    });
    expect(res.status).toBe(415);
  });

  it("ignores prototype-pollution keys like any unknown field", async () => {
    const res = await post(
      '{"task":"x y","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps serving after every kind of bad request", async () => {
    const res = await post(JSON.stringify({ task: "Still here" }));
    expect(res.status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe("POST /score-task with a diff (issue 31)", () => {
  const DIFF = [
    "diff --git a/src/checkout.ts b/src/checkout.ts",
    "--- a/src/checkout.ts",
    "+++ b/src/checkout.ts",
    "@@ -1,2 +1,3 @@",
    " export const a = 1;",
    "-export const b = 2;",
    "+export const b = 3;",
    "+export const c = 4;",
    "diff --git a/src/checkout.test.ts b/src/checkout.test.ts",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/src/checkout.test.ts",
    "@@ -0,0 +1 @@",
    "+it('pays', () => {});",
    "diff --git a/package.json b/package.json",
    "--- a/package.json",
    "+++ b/package.json",
    "@@ -1 +1 @@",
    '-{"dependencies":{}}',
    '+{"dependencies":{"stripe":"^14.0.0"}}',
    "",
  ].join("\n");

  it("reads the change into reading.change, and the report stays the contract's", async () => {
    const res = await post(JSON.stringify({ task: "Add Stripe checkout", description: "Cards", diff: DIFF }));
    expect(res.status).toBe(200);
    expect(res.json!.reading.change).toEqual({
      files: 3,
      additions: 4,
      deletions: 2,
      tests: { files: 1 },
      docs: 0,
      generated: 0,
      dependencies: ["package.json"],
      size: "S",
      truncated: false,
    });
    expect(ScoreReportSchema.safeParse(res.json).success).toBe(true);
    // The diff is not echoed: the report carries task and description only.
    expect(Object.keys(res.json!)).toEqual(["task", "description", "consensus", "expertScores", "reading"]);
  });

  it("leaves reading.change out when no diff was sent", async () => {
    const res = await post(JSON.stringify({ task: "Add Stripe checkout" }));
    expect(res.status).toBe(200);
    expect("change" in res.json!.reading).toBe(false);
  });

  it("takes a 3,000,000-character diff within the 4 MiB body", async () => {
    const line = "+" + "x".repeat(98) + "\n";
    const body = line.repeat(Math.floor((3_000_000 - 200) / line.length));
    const lines = body.length / line.length;
    const diff = `diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,${lines} @@\n${body}`;
    const res = await post(JSON.stringify({ task: "Big change", diff: diff.padEnd(3_000_000, "\n") }));
    expect(res.status).toBe(200);
    expect(res.json!.reading.change).toMatchObject({ files: 1, additions: lines, size: "XL" });
  });

  it.each([
    ["3,000,001 characters", "diff --git a/a b/a\n".padEnd(3_000_001, "x"), /at most 3,000,000 characters/],
    ["no diff header at all", "just some text\n+added?\n", /no diff header/],
    ["a hunk without its file's header", "@@ -1 +1 @@\n-a\n+b\n", /no diff header/],
    ["a number", 42, /must be a string/],
  ])("400 invalid_request naming diff for %s", async (_name, diff, message) => {
    const res = await post(JSON.stringify({ task: "x", diff }));
    expectError(res, 400, "invalid_request");
    expect(res.json!.error.message).toMatch(/`?diff`?/);
    expect(res.json!.error.message).toMatch(message);
    expect(res.json!.error.details.issues[0].field).toBe("diff");
  });

  it("accepts a diff without `diff --git`: just the ---/+++ header of one file", async () => {
    const res = await post(
      JSON.stringify({ task: "x", diff: "--- a/x.py\r\n+++ b/x.py\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n" }),
    );
    expect(res.status).toBe(200);
    expect(res.json!.reading.change).toMatchObject({ files: 1, additions: 1, deletions: 1, size: "XS" });
  });
});

describe("scorer failures map to the contract's statuses", () => {
  async function withScorer(scorer: Scorer, fn: (url: string) => Promise<void>) {
    const server = await buildServer({ scorer, policy: DEFAULT_APPROVAL_POLICY });
    try {
      await fn("");
      const res = await server.inject({ method: "POST", url: "/score-task", payload: { task: "x" } });
      return res;
    } finally {
      await server.close();
    }
  }
  const failing = (error: Error): Scorer => ({ name: "fake", score: async () => Promise.reject(error) });

  it.each([
    [
      new ScorerFailedError("The Revenue Expert's model answered with no usable score after 2 attempts."),
      502,
      "scorer_failed",
    ],
    [
      new ScorerUnavailableError("The model provider refused the request (401) for the UX Designer."),
      503,
      "scorer_unavailable",
    ],
    [
      new ScorerTimeoutError("The Product Manager's model did not answer within 30 s."),
      504,
      "scorer_timeout",
    ],
  ])("%s -> %i", async (error, status, code) => {
    const res = await withScorer(failing(error), async () => {});
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: { code, message: error.message } });
  });

  it("500 internal_error for anything else, without leaking its message", async () => {
    const res = await withScorer(failing(new Error("secret sk-live-123 at /srv/app.js:10")), async () => {});
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe("internal_error");
    expect(res.body).not.toMatch(/sk-live|app\.js/);
  });
});

describe("service endpoints", () => {
  it("GET /healthz reports ok, the version, the scorer and whether the App is on", async () => {
    const res = await fetch(`${base}/healthz`);
    expect(await res.json()).toEqual({ status: "ok", version: "0.0.0", scorer: "offline", app: false });
  });

  it("GET /openapi.json is OpenAPI 3.1 generated from the schemas", async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    const op = doc.paths["/score-task"].post;
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(["200", "400", "413", "415", "502", "503", "504"]),
    );
    const ref: string = op.requestBody.content["application/json"].schema.$ref;
    const body = doc.components.schemas[ref.split("/").pop()!];
    expect(body.required).toEqual(["task"]);
    expect(body.properties.task.maxLength).toBe(256);
    expect(body.properties.description.maxLength).toBe(65536);
    expect(JSON.stringify(doc.components.schemas)).toContain("Marketing Strategist");
  });

  it("applies a quota only when one is configured, with Retry-After", async () => {
    const limited = await buildServer({
      scorer: offlineScorer,
      policy: DEFAULT_APPROVAL_POLICY,
      rateLimitPerMinute: 2,
    });
    try {
      const send = () => limited.inject({ method: "POST", url: "/score-task", payload: { task: "x y" } });
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const third = await send();
      expect(third.statusCode).toBe(429);
      expect(third.json().error.code).toBe("rate_limited");
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
