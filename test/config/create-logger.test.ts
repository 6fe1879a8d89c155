import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { createLogger } from "../../src/config/create-logger.js";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

describe("the service logger", () => {
  it("never writes a credential carried by an error or a settings object", () => {
    const { logger, lines } = capture();
    const err = Object.assign(new Error("Bad credentials"), {
      request: { headers: { authorization: "token ghs_secretvalue" } },
      headers: { authorization: "Bearer sk-secretvalue", "api-key": "azure-secretvalue" },
    });
    logger.error({ err }, "request failed");
    logger.info({ settings: { apiKey: "sk-other-secret", model: "gpt-4o-mini" } }, "scorer");
    const out = lines.join("");
    expect(out).not.toMatch(/secretvalue|sk-other-secret/);
    expect(out).toContain("[Redacted]");
    // What is not a secret still reaches the log.
    expect(out).toContain("Bad credentials");
    expect(out).toContain("gpt-4o-mini");
  });
});

describe("children named by a framework (Probot)", () => {
  it("write `name` once, joined with the parent's, and keep the options given on the way", async () => {
    const { namedChildren } = await import("../../src/config/create-logger.js");
    const { logger, lines } = capture();
    const probot = namedChildren(logger, {}, { serializers: { err: () => ({ kept: "only this" }) } });
    const event = probot.child({ name: "probot" }).child({ name: "event", id: "d-1" });
    event.error({ err: new Error("payload with secrets") }, "handler failed");
    logger.flush?.();
    const line = lines.join("");
    expect(line.match(/"name":/g)).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ name: "probot.event", id: "d-1", err: { kept: "only this" } });
  });
});
