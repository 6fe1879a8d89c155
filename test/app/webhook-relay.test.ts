import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { startWebhookRelay } from "../../src/app/webhook-relay.js";
import type { Service } from "../../src/compose-service.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { capturingLogger, payload, sign, standInGitHub, startService } from "../helpers/app-harness.js";

/**
 * WEBHOOK_PROXY_URL for local development: a smee channel (here a stand-in event stream on loopback,
 * speaking smee.io's format) relays GitHub's deliveries to the local webhook path, signature intact.
 */
let channel: Server;
let stream: ServerResponse | undefined;
let source = "";
/** One service for the file (the relay is its client), started after the stand-in. */
let service: Service;
let relay: Awaited<ReturnType<typeof startWebhookRelay>>;
// Declared before the stand-in's own hooks: jest runs afterAll hooks in the order they are declared, so the
// relay and the service stop before the stand-in does.
afterAll(async () => {
  await relay?.stop();
  stream?.end();
  channel.closeAllConnections();
  await new Promise((resolve) => channel.close(resolve));
  await service.close();
});

const github = standInGitHub({ keep: true });

beforeAll(async () => {
  channel = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: ready\ndata: {}\n\n");
    stream = res;
  });
  await new Promise<void>((resolve) => channel.listen(0, "127.0.0.1", resolve));
  source = `http://127.0.0.1:${(channel.address() as AddressInfo).port}/abc123`;
  service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http", WEBHOOK_PROXY_URL: source });
  await service.server.listen({ port: 0, host: "127.0.0.1" });
  const { port } = service.server.server.address() as AddressInfo;
  relay = await startWebhookRelay(
    source,
    `http://127.0.0.1:${port}${service.webhookPath}`,
    pino({ level: "silent" }),
  );
});

describe("WEBHOOK_PROXY_URL", () => {
  it("relays a delivery from the channel to the webhook path, where it is verified and scored", async () => {
    expect(relay).toBeDefined();
    const body = payload("issues", "opened");
    const issue = `${body.repository.full_name}#${body.issue.number}`;
    const message = {
      "x-github-event": "issues",
      "x-github-delivery": "relayed-1",
      "x-hub-signature-256": sign(JSON.stringify(body)),
      body,
    };
    stream!.write(`data: ${JSON.stringify(message)}\n\n`);
    for (let i = 0; i < 100 && github.commentsOn(issue).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await service.queue!.drain();
    }
    expect(github.commentsOn(issue)).toHaveLength(1);
    expect(github.commentsOn(issue)[0]!.body.startsWith(REPORT_MARKER)).toBe(true);
  });
});

describe("an unreachable WEBHOOK_PROXY_URL", () => {
  it("is said once, in words, then tried again with exponential backoff until it answers; then relays", async () => {
    // A channel that is down (503) until told otherwise, noting when each attempt arrives.
    const attempts: number[] = [];
    let up = false;
    let open: ServerResponse | undefined;
    const flaky = createServer((req, res) => {
      attempts.push(Date.now());
      if (!up) {
        res.writeHead(503, { "content-type": "text/plain" }).end("smee is down");
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("event: ready\ndata: {}\n\n");
      open = res;
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    const flakySource = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/down`;
    const { logger, lines } = capturingLogger();
    const { port } = service.server.server.address() as AddressInfo;
    const down = await startWebhookRelay(
      flakySource,
      `http://127.0.0.1:${port}${service.webhookPath}`,
      logger,
      {
        initialDelayMs: 100,
        maxDelayMs: 400,
      },
    );
    try {
      // Still there, trying: the server keeps running and the relay recovers by itself.
      expect(down).toBeDefined();
      expect(down!.connected).toBe(false);
      for (let i = 0; i < 100 && attempts.length < 6; i++) await new Promise((r) => setTimeout(r, 50));
      expect(attempts.length).toBeGreaterThanOrEqual(6);
      const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
      // 100, 200, 400, 400 … ms: growing, then capped (never the stream's own 3 s, nor a tight loop).
      // (Lower bounds with room for a loaded machine: an arrival can be late by a connect's own delay.)
      expect(gaps[0]!).toBeGreaterThanOrEqual(50);
      expect(gaps[1]!).toBeGreaterThanOrEqual(120);
      expect(Math.min(...gaps.slice(2))).toBeGreaterThanOrEqual(250);
      expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
      expect(Math.max(...gaps)).toBeLessThan(2500);

      const warnings = lines.filter((l) => l.level >= 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toContain(
        "WEBHOOK_PROXY_URL could not be reached (Non-200 status code (503))",
      );
      expect(warnings[0]!.msg).toContain("trying again with backoff");
      expect(JSON.stringify(lines)).not.toContain("[object Event]");

      up = true;
      for (let i = 0; i < 100 && !down!.connected; i++) await new Promise((r) => setTimeout(r, 50));
      expect(down!.connected).toBe(true);
      expect(lines.some((l) => l.msg === "webhook relay: connected to WEBHOOK_PROXY_URL again")).toBe(true);

      // A connection that drops later is tried again the same way, without another warning per attempt.
      up = false;
      const before = attempts.length;
      open?.destroy();
      for (let i = 0; i < 100 && attempts.length < before + 3; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(attempts.length).toBeGreaterThanOrEqual(before + 3);
      expect(lines.filter((l) => l.level >= 40)).toHaveLength(2);
    } finally {
      await down?.stop();
      open?.end();
      flaky.closeAllConnections();
      await new Promise((resolve) => flaky.close(resolve));
    }
    // Stopped means stopped: no further attempts.
    const stoppedAt = attempts.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(attempts.length).toBe(stoppedAt);
  });
});
