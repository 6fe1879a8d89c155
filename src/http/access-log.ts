import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { atTime, LOG_FLUSH_INTERVAL_MS } from "../config/create-logger.js";

interface AccessEntry {
  time: number;
  reqId: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  scorer: unknown;
  ip: string;
}

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

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly maxPending = 256,
  ) {
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
    const log = this.logger;
    for (const { time, ...fields } of lines) atTime(time, () => log.info(fields, "request"));
  }
}
