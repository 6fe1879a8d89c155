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

/** The service's JSON logger: `npm start` writes it to stdout; the benchmark to /dev/null. */
export function createLogger(level = "info", destination?: DestinationStream): Logger {
  const options = { level, redact: REDACTED_PATHS };
  return destination ? pino(options, destination) : pino(options);
}
