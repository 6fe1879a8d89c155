import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { deliverOverHttp, payload } from "../helpers/app-harness.js";
import type { NpmStart } from "../helpers/npm-start.js";
import { startBuiltServer } from "../helpers/server-build.js";
import { serverWithStandIn } from "../helpers/server-with-stand-in.js";

/**
 * Two faults as a user meets them, against the server in its own process: a tenant's hostile title pattern
 * must not freeze the service for everyone (through the real `npm start`, which compiles, then serves: the
 * suite's one test of `npm start` itself), and a model provider that hangs must still get REST clients the
 * documented JSON 504 under the default settings (the server as `npm run start:prod` runs it, from the test
 * build).
 * Both stand-ins (GitHub, the model provider) run on loopback. The hanging provider's request is sent before the
 * first test and answered only when the default deadline (30 s) runs out: it waits beside the other describe's
 * `npm start` and deliveries instead of after them.
 */

async function timedScore(base: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/score-task`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ task: `Add dark mode ${Math.random()}` }),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** The hanging model provider, the server that asks it, and the REST request sent to it at the file's start. */
let provider: Server;
let server: NpmStart;
let calls = 0;
let hungRequest: Promise<Response>;

beforeAll(async () => {
  provider = createServer((req) => {
    calls++;
    req.resume(); // read the request, never answer
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const addr = provider.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  // Only what is needed to reach the stand-in: every timeout, retry and deadline is the default.
  server = await startBuiltServer({
    OPENAI_API_KEY: "sk-test-not-a-real-key",
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
  });
  hungRequest = fetch(`${server.base}/score-task`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ task: "Add Stripe checkout" }),
  });
  // Handled where the test awaits it; a failure meanwhile is not an unhandled rejection.
  hungRequest.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  provider?.closeAllConnections();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe("npm start: a repository's hostile skip-title pattern", () => {
  const app = serverWithStandIn({
    npmStart: true,
    // Catastrophic backtracking for a backtracking engine: 2^40 paths on this title.
    prepare: (github) =>
      void github.configFiles.set("Codertocat/Hello-World", "skip-title-patterns: ['^(a+)+$']\n"),
  });
  const { github } = app;

  it("the REST API keeps answering within a second while the pattern is evaluated on issue after issue", async () => {
    const issues = 5;
    const title = `${"a".repeat(40)}!`;
    for (let n = 1; n <= issues; n++) {
      const body = payload("issues", "opened", (p) => {
        p.issue.number = n;
        p.issue.title = title;
      });
      const res = await deliverOverHttp(app.server.base, "issues", body, `hostile-${n}`);
      expect(res.status).toBe(200);
    }
    // Probe the REST API while the App works through the deliveries, until every issue has its
    // report (the title does not match the pattern, so each one is scored).
    const probes: { status: number; ms: number }[] = [];
    const giveUpAt = Date.now() + 45_000;
    while (github.comments.length < issues && Date.now() < giveUpAt) {
      probes.push(await timedScore(app.server.base));
      await new Promise((r) => setTimeout(r, 20));
    }
    probes.push(await timedScore(app.server.base));
    probes.push(await timedScore(app.server.base));
    expect(github.comments).toHaveLength(issues);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(1000);
    // Each job read the config with the hostile pattern.
    expect(github.requests.filter((r) => r.path.includes("/contents/")).length).toBeGreaterThanOrEqual(
      issues,
    );
  }, 60_000);
});

describe("npm start: a model provider that hangs, with the default settings", () => {
  it("gets the REST client a JSON 504 scorer_timeout, not a dropped connection", async () => {
    // Sent before the first test (see beforeAll above).
    const res = await hungRequest;
    expect(res.status).toBe(504);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("scorer_timeout");
    expect(body.error.message).toMatch(/deadline of 30 s/);
    expect(calls).toBe(5);
  }, 90_000);
});
