import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import {
  atTime,
  LOG_FLUSH_INTERVAL_MS,
  plainInfoLines,
  type PlainInfoLines,
} from "../config/create-logger.js";

interface AccessEntry {
  time: number;
  reqId: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  scorer: unknown;
  ip: string | undefined;
}

/** The fields of an access line, in order. */
const FIELDS = ["reqId", "method", "url", "status", "durationMs", "scorer", "ip"];

/** Every access log not yet written out, so that a process that exits writes what it still holds. */
const live = new Set<AccessLog>();
let exitHooked = false;

/**
 * The one access line per request, written in batches: a request records its fields (a few values) and the lines
 * are formatted together every 100 ms, after 256 requests, when the server closes and when the process exits.
 * Formatting a line costs about 4 µs in a loop but three to four times that between other requests' work
 * (measured on the one-word REST path: the access line was the largest single cost, about a third of our own
 * CPU per request), so the lines are made back to back. Each line carries the time its request ended, as if it
 * had been written then; only its arrival is later (up to 100 ms here, and the buffered destination's own 100 ms).
 */
export class AccessLog {
  private pending: AccessEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Set when the lines can be written as one text, formatted here (a logger made by createLogger). */
  private readonly plain: PlainInfoLines | undefined;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly maxPending = 256,
  ) {
    this.plain = plainInfoLines(logger, FIELDS);
    if (!exitHooked) {
      exitHooked = true;
      // pino writes its buffered destination out when the process exits (after a crash too): these lines must
      // be in that buffer first, so this listener goes before pino's, which was added when the logger was made.
      process.prependListener("exit", () => {
        for (const log of live) log.flush();
      });
    }
  }

  record(request: FastifyRequest, reply: FastifyReply): void {
    // Below `info` (LOG_LEVEL=warn) the line would be dropped: nothing is kept for it.
    if ((this.logger as Partial<Logger>).isLevelEnabled?.("info") === false) return;
    const url = request.url;
    const query = url.indexOf("?");
    const size = this.pending.push({
      time: Date.now(),
      reqId: request.id,
      method: request.method,
      url: query < 0 ? url : url.slice(0, query),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      scorer: reply.getHeader("x-scorer"),
      // The client's address: behind a proxy, only with TRUST_PROXY (otherwise the proxy's).
      ip: request.ip,
    });
    if (size >= this.maxPending) this.flush();
    else if (size === 1) {
      live.add(this);
      this.timer = setTimeout(() => this.flush(), LOG_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Writes every line still held, each stamped with its request's end. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    live.delete(this);
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    const plain = this.plain;
    if (plain) {
      // The same lines pino writes, made here and written as one text: pino's own formatting of each line and
      // its write to the destination were most of the access line's cost.
      let text = "";
      const tail = plain.tail("request");
      for (const e of lines) {
        text += `${plain.head(e.time)},"reqId":${JSON.stringify(e.reqId)},"method":${JSON.stringify(e.method)},"url":${JSON.stringify(e.url)},"status":${e.status},"durationMs":${e.durationMs}`;
        if (e.scorer !== undefined) text += `,"scorer":${JSON.stringify(e.scorer)}`;
        // A socket already gone has no address: pino leaves an undefined field out.
        if (e.ip !== undefined) text += `,"ip":${JSON.stringify(e.ip)}`;
        text += tail;
      }
      plain.write(text);
      return;
    }
    const log = this.logger;
    for (const { time, ...fields } of lines) atTime(time, () => log.info(fields, "request"));
  }
}
