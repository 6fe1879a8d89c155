import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Where a secret could reach a log line: an error carrying the request it made (Octokit, the model
 * SDK) or a settings object. The paths are spelled out rather than wildcards (`*.token`): pino checks
 * wildcard paths on every line, which measured about 3 µs per request line, twice the line's own cost.
 */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "err.request.headers.authorization",
  "err.headers.authorization",
  "err.headers['api-key']",
  "err.apiKey",
  "err.token",
  "err.privateKey",
  "err.secret",
  "settings.apiKey",
  "settings.privateKey",
  "settings.webhookSecret",
];

/** How often buffered log lines are written out when traffic is too light to fill the buffer. */
export const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * Where the service's lines go: buffered, written in blocks of about 4 KB or every 100 ms, whichever comes
 * first. A line written straight away costs a system call on every request (measured: about 11 µs of a
 * one-word request's CPU, the largest single cost of the HTTP path). pino writes what is left synchronously
 * when the process exits (also after an uncaught error or SIGTERM); a process killed with SIGKILL loses at
 * most the last 100 ms of lines, never a task.
 */
export function bufferedDestination(dest: number | string = 1): DestinationStream {
  const stream = pino.destination({ dest, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    try {
      stream.flush();
    } catch {
      // Not open yet (a file being opened) or already closed: the next tick or the exit flush writes it.
    }
  }, LOG_FLUSH_INTERVAL_MS);
  timer.unref();
  stream.on("close", () => clearInterval(timer));
  return stream;
}

let stampedAt: number | undefined;

/**
 * Lines written inside `write` carry `time` instead of the clock's now: the access log writes its lines in
 * batches (src/http/access-log.ts), each stamped with the moment its request ended. Only loggers made by
 * createLogger read it; another logger stamps the moment of writing.
 */
export function atTime(time: number, write: () => void): void {
  stampedAt = time;
  try {
    write();
  } finally {
    stampedAt = undefined;
  }
}

/** pino's own epoch-milliseconds stamp, or the one `atTime` set. */
const timestamp = () => `,"time":${stampedAt ?? Date.now()}`;

/** The service's JSON logger: `npm start` writes it to stdout (buffered); the benchmark to /dev/null. */
export function createLogger(level = "info", destination: DestinationStream = bufferedDestination()): Logger {
  return pino({ level, redact: REDACTED_PATHS, timestamp }, destination);
}

/**
 * A logger whose children join their `name` to their parent's ("probot.event") instead of writing the key a
 * second time: pino writes every child's bindings as they come, so Probot's own `child({ name: "probot" })`
 * and then `child({ name: "event" })` gave lines with `"name"` two or three times, which JSON tools read as
 * the last one only. Each child is made from the unnamed root with the bindings and options merged so far.
 */
export function namedChildren(
  root: Logger,
  bindings: Record<string, unknown> = {},
  options: object = {},
): Logger {
  const logger =
    Object.keys(bindings).length + Object.keys(options).length ? root.child(bindings, options) : root;
  return new Proxy(logger, {
    get(target, prop, receiver) {
      if (prop !== "child") return Reflect.get(target, prop, receiver) as unknown;
      return (more: Record<string, unknown> = {}, moreOptions: Record<string, unknown> = {}) => {
        const merged = { ...bindings, ...more };
        if (typeof bindings.name === "string" && typeof more.name === "string")
          merged.name = `${bindings.name}.${more.name}`;
        const o = options as Record<string, unknown>;
        const serializers = { ...(o.serializers as object), ...(moreOptions.serializers as object) };
        return namedChildren(root, merged, { ...o, ...moreOptions, serializers });
      };
    },
  });
}
