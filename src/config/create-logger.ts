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

/** Set on loggers made by createLogger (and so seen by their children): their lines are pino's plain shape. */
const MADE_HERE = Symbol("task-scorer.createLogger");

/** The service's JSON logger: `npm start` writes it to stdout (buffered); the benchmark to /dev/null. */
export function createLogger(level = "info", destination: DestinationStream = bufferedDestination()): Logger {
  const logger = pino({ level, redact: REDACTED_PATHS, timestamp }, destination);
  Object.defineProperty(logger, MADE_HERE, { value: true });
  return logger;
}

/** What a caller needs to write `info` lines of a logger itself, as pino would write them (see plainInfoLines). */
export interface PlainInfoLines {
  /** `{"level":30,"time":<time>` and the bindings every line of this logger carries (pid, hostname, ...). */
  head(time: number): string;
  /** `,"msg":…}` and the line's end. */
  tail(msg: string): string;
  /** Writes text (whole lines) to the logger's destination. */
  write(text: string): void;
}

/**
 * For the access log (src/http/access-log.ts): writes a batch of lines as one text, each formatted by the caller,
 * instead of pino formatting and writing each (measured: about 3 µs of a one-word request's CPU). Only for a
 * logger made by createLogger or a child of one whose lines keep pino's plain shape: no mixin, log formatter,
 * message prefix, hooks, nested key, or serializer for `fields`; a destination that needs no per-line metadata
 * (pino.multistream). undefined for any other logger: the caller then logs through pino.
 */
export function plainInfoLines(logger: object, fields: readonly string[]): PlainInfoLines | undefined {
  const l = logger as Record<symbol, unknown> & Partial<Logger>;
  const s = pino.symbols;
  const stream = l[s.streamSym] as (DestinationStream & Record<symbol, unknown>) | undefined;
  const formatters = l[s.formattersSym] as { log?: unknown } | undefined;
  const serializers = (l[s.serializersSym] ?? {}) as Record<string, unknown>;
  const hooks = (l[s.hooksSym] ?? {}) as { logMethod?: unknown; streamWrite?: unknown };
  const levelText = (l[s.lsCacheSym] as Record<number, string> | undefined)?.[30];
  if (
    l[MADE_HERE] !== true ||
    !stream ||
    stream[Symbol.for("pino.metadata")] === true ||
    typeof levelText !== "string" ||
    l.levels?.values.info !== 30 ||
    formatters?.log ||
    l[s.mixinSym] ||
    l[(s as unknown as Record<string, symbol>).msgPrefixSym!] ||
    l[s.nestedKeySym] ||
    hooks.logMethod ||
    hooks.streamWrite ||
    [...fields, "msg"].some((f) => serializers[f]) ||
    l[s.messageKeySym] !== "msg"
  )
    return undefined;
  const bindings = l[s.chindingsSym] as string;
  const end = l[s.endSym] as string;
  return {
    head: (time) => `${levelText},"time":${time}${bindings}`,
    tail: (msg) => `,"msg":${JSON.stringify(msg)}${end}`,
    write: (text) => void stream.write(text),
  };
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
