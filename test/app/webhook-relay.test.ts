import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { startWebhookRelay } from "../../src/app/webhook-relay.js";
import { composeService, type Service } from "../../src/compose-service.js";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { PRIVATE_KEY, TestOctokit, WEBHOOK_SECRET, payload, sign } from "../helpers/app-harness.js";
import { loadServiceConfig } from "../../src/config/service-config.js";

/**
 * WEBHOOK_PROXY_URL for local development: a smee channel (here a stand-in event stream on loopback,
 * speaking smee.io's format) relays GitHub's deliveries to the local webhook path, signature intact.
 */
let channel: Server;
let stream: ServerResponse | undefined;
let source = "";
let github: FakeGitHub;
let service: Service;
let relay: Awaited<ReturnType<typeof startWebhookRelay>>;

beforeAll(async () => {
  channel = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: ready\ndata: {}\n\n");
    stream = res;
  });
  await new Promise<void>((resolve) => channel.listen(0, "127.0.0.1", resolve));
  source = `http://127.0.0.1:${(channel.address() as AddressInfo).port}/abc123`;
  github = await startFakeGitHub();
  service = await composeService(
    loadServiceConfig({
      SCORER: "offline",
      APP_ID: "123",
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      WEBHOOK_PROXY_URL: source,
    }),
    { logger: pino({ level: "silent" }), Octokit: TestOctokit },
  );
  await service.server.listen({ port: 0, host: "127.0.0.1" });
  const { port } = service.server.server.address() as AddressInfo;
  relay = await startWebhookRelay(
    source,
    `http://127.0.0.1:${port}${service.webhookPath}`,
    pino({ level: "silent" }),
  );
});

afterAll(async () => {
  await relay?.stop();
  stream?.end();
  channel.closeAllConnections();
  await new Promise((resolve) => channel.close(resolve));
  await service.close();
  await github.close();
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
