import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { FastifyInstance } from "fastify";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { buildServer } from "../../src/http/build-server.js";

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  // A short request timeout so the slow-client tests run quickly; production uses 30 s.
  app = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY, requestTimeoutMs: 600 });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  port = typeof addr === "object" && addr ? addr.port : 0;
});
afterAll(async () => {
  await app.close();
});

/** Opens a raw socket, writes `parts` with a pause between them, resolves with what the server did. */
function trickle(parts: string[], pauseMs: number): Promise<{ closed: boolean; response: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let response = "";
    let i = 0;
    const timer = setInterval(() => {
      if (i < parts.length && !socket.destroyed) socket.write(parts[i++]!);
    }, pauseMs);
    socket.on("data", (d) => (response += d.toString()));
    const done = (closed: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ closed, response });
    };
    socket.on("close", () => done(true));
    socket.on("error", () => done(true));
    // Far longer than the server's limit: if we get here the server let the client hold the socket.
    setTimeout(() => done(false), 6_000);
  });
}

describe("slow and hostile clients", () => {
  it("cuts off a client that sends its headers a byte at a time (slowloris)", async () => {
    const header =
      "POST /score-task HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Slow: " + "a".repeat(200);
    const result = await trickle(header.split(""), 50);
    expect(result.closed).toBe(true);
  });

  it("cuts off a client that announces a body and never finishes sending it", async () => {
    const result = await trickle(
      [
        "POST /score-task HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
        '{"task":"',
        "a",
      ],
      100,
    );
    expect(result.closed).toBe(true);
    expect(result.response).not.toContain("200 OK");
  });

  it("serves many identical requests at once, the same way, with request ids that never collide", async () => {
    // Production's 30 s deadline, not the slow-client tests' 600 ms: 200 requests at once on a busy 2-core machine
    // can wait longer than that for their turn, and this test is about ids and answers, not deadlines.
    const busy = await buildServer({
      scorer: offlineScorer,
      policy: DEFAULT_APPROVAL_POLICY,
      requestTimeoutMs: 30_000,
    });
    await busy.listen({ port: 0, host: "127.0.0.1" });
    const addr = busy.server.address();
    const busyPort = typeof addr === "object" && addr ? addr.port : 0;
    try {
      const body = JSON.stringify({ task: "Add dark mode", description: "Users asked for a dark theme." });
      const responses = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`http://127.0.0.1:${busyPort}/score-task`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          }),
        ),
      );
      const ids = responses.map((r) => r.headers.get("x-request-id"));
      const reports = await Promise.all(
        responses.map((r) => r.json() as Promise<{ expertScores: unknown[] }>),
      );
      expect(responses.every((r) => r.status === 200)).toBe(true);
      expect(new Set(ids).size).toBe(200);
      for (const r of reports) expect(r.expertScores).toEqual(reports[0]!.expertScores);
    } finally {
      await busy.close();
    }
  });

  it("keeps serving after the hostile clients", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
