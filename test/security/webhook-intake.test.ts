import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import type { Service } from "../../src/compose-service.js";
import { DatabaseDeliveries } from "../../src/fleet/delivery-queues.js";
import { DeliveryStore } from "../../src/fleet/delivery-store.js";
import { openDatabase, type Database } from "../../src/storage/database.js";
import {
  capturingLogger,
  deliver,
  payload,
  sign,
  standInGitHub,
  startService,
} from "../helpers/app-harness.js";

/**
 * The webhook as an attacker meets it: unauthenticated bodies, forged shapes, and a delivery that
 * kills the process each time it is handled.
 */
const github = standInGitHub({ keep: true });

describe("the webhook checks what it can before reading an unauthenticated body", () => {
  let service: Service;
  let port = 0;
  beforeAll(async () => {
    service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http" });
    await service.server.listen({ port: 0, host: "127.0.0.1" });
    port = (service.server.server.address() as AddressInfo).port;
  });
  afterAll(async () => service.close());

  /** Sends the headers and the first KB of a body announced as `declared` bytes, then waits for an answer. */
  function partialPost(headers: Record<string, string>, declared: number) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: "/api/github/webhooks",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": String(declared), ...headers },
        },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.write("x".repeat(1024)); // and never the rest
    });
  }

  it("no signature: 401 at once, without waiting for (or holding) the 25 MB it announces", async () => {
    const res = await partialPost(
      { "x-github-event": "issues", "x-github-delivery": "d1" },
      25 * 1024 * 1024,
    );
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.code).toBe("invalid_signature");
  });

  it("a malformed signature header: 401 at once", async () => {
    const res = await partialPost({ "x-hub-signature-256": "sha1=abc", "x-github-event": "issues" }, 5000);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.message).toMatch(/sha256=<64 hex digits>/);
  });

  it("a body larger than any handled event (over 4 MiB): 413 at once", async () => {
    const res = await partialPost(
      { "x-hub-signature-256": `sha256=${"0".repeat(64)}`, "x-github-event": "issues" },
      10 * 1024 * 1024,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("verifies the signature over the bytes: a payload with multi-byte text is accepted", async () => {
    const body = payload("issues", "opened", (p) => {
      p.issue.title = "Exporter les rapports en CSV — 日本語 ✓ 🚀";
    });
    const res = await deliver(service, "issues", body);
    expect(res.statusCode).toBe(200);
    const forged = await deliver(service, "issues", body, "forged", sign(JSON.stringify({ other: 1 })));
    expect(forged.statusCode).toBe(401);
  });
});

describe("a signed payload of the wrong shape", () => {
  it("gets 400 invalid_request naming the field, and the log names the event, never the payload", async () => {
    const { logger, lines } = capturingLogger();
    const service = await startService({ GHE_HOST: github.host, GHE_PROTOCOL: "http" }, undefined, logger);
    try {
      const secretText = "private-text-of-a-reporter@example.com";
      const body = payload("issues", "opened", (p) => {
        p.issue = { number: "twelve", title: secretText };
      });
      const res = await deliver(service, "issues", body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: "invalid_request", message: expect.stringMatching(/issues payload.*issue\.number/) },
      });
      const comment = payload("issue_comment", "created", (p) => {
        delete p.comment;
      });
      expect((await deliver(service, "issue_comment", comment)).statusCode).toBe(400);
      await service.queue!.drain();
      const log = JSON.stringify(lines);
      expect(log).not.toContain(secretText);
      expect(
        lines.some((l) => l.msg === "webhook refused: payload of the wrong shape" && l.event === "issues"),
      ).toBe(true);
      expect(lines.some((l) => l.level >= 50)).toBe(false);
    } finally {
      await service.close();
    }
  });
});

describe("a delivery that never finishes (the process dies handling it)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => database.close());

  it("is given up after 3 attempts, marked failed, and the maintainers are told once", async () => {
    const store = new DeliveryStore(database.db);
    const d = { id: "77:poison", guid: "poison", event: "issues", payload: { n: 1 } };
    expect(await store.accept(d)).toBe("new");
    // Three starts that each died mid-way: claimed, never finished, the lease ran out.
    for (let i = 0; i < 3; i++) {
      expect(await store.claim(d.id, 1)).toBe(i + 1);
      await new Promise((r) => setTimeout(r, 20));
    }
    const handled: string[] = [];
    const told: number[] = [];
    const intake = new DatabaseDeliveries(
      store,
      async (x) => void handled.push(x.id),
      pino({ level: "silent" }),
      { giveUp: async (_x, attempts) => void told.push(attempts) },
    );
    await intake.start(); // the start-up sweep finds it
    await intake.close(5000);
    expect(handled).toEqual([]);
    expect(told).toEqual([3]);
    expect(await store.counts()).toEqual({ failed: 1 });
    // A second start does not pick it up again.
    const again = new DatabaseDeliveries(
      store,
      async (x) => void handled.push(x.id),
      pino({ level: "silent" }),
      {
        giveUp: async (_x, attempts) => void told.push(attempts),
      },
    );
    await again.start();
    await again.close(5000);
    expect(told).toEqual([3]);
  });
});
