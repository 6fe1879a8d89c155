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
