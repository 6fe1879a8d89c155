import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import pino from "pino";
import { createLogger, plainInfoLines } from "../../src/config/create-logger.js";
import { AccessLog } from "../../src/http/access-log.js";

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("").replace(/"time":\d+/g, '"time":0') };
}

/** Requests whose fields need escaping, a missing scorer header and a socket already gone (no address). */
function writeSome(log: AccessLog) {
  const requests = [
    { url: '/score-task?x="1"', id: 'an "id"', ip: "127.0.0.1", scorer: "offline" },
    { url: "/é\u2028\\", id: "x", ip: undefined, scorer: undefined },
  ];
  for (const r of requests)
    log.record(
      { url: r.url, id: r.id, method: "POST", ip: r.ip } as unknown as FastifyRequest,
      { statusCode: 200, elapsedTime: 1.23456, getHeader: () => r.scorer } as unknown as FastifyReply,
    );
  log.flush();
}

describe("the access log", () => {
  it("writes, for a logger made by createLogger, the very lines pino writes for the same fields", () => {
    const ours = sink();
    // As fastify holds it: a child with its own serializers (for req, res and err only).
    const logger = createLogger("info", ours.stream).child({}, { serializers: { req: (r: unknown) => r } });
    expect(plainInfoLines(logger, ["url"])).toBeDefined();
    writeSome(new AccessLog(logger as unknown as FastifyBaseLogger));

    const pinos = sink();
    const plainPino = pino({ level: "info" }, pinos.stream);
    expect(plainInfoLines(plainPino, ["url"])).toBeUndefined();
    writeSome(new AccessLog(plainPino as unknown as FastifyBaseLogger));

    expect(ours.text()).toBe(pinos.text());
    expect(ours.text().split("\n").filter(Boolean)).toHaveLength(2);
  });

  it("leaves a logger that changes its lines to pino", () => {
    const { stream } = sink();
    const logger = createLogger("info", stream);
    expect(plainInfoLines(logger.child({}, { msgPrefix: "[http] " }), ["url"])).toBeUndefined();
    expect(plainInfoLines(logger.child({}, { serializers: { url: String } }), ["url"])).toBeUndefined();
  });
});
