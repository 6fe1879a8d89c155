/**
 * Typed errors shared by every adapter. Each carries a stable snake_case `code` from the contract;
 * adapters map codes to their own surface (HTTP status, `setFailed`, a note in a comment) in one place.
 * Messages are written for a person and never include keys, stack traces or upstream bodies.
 */
export type ErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "not_found"
  | "method_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "invalid_signature"
  | "scorer_failed"
  | "scorer_unavailable"
  | "scorer_timeout"
  | "invalid_config"
  | "unauthorized"
  | "forbidden"
  | "quota_exceeded"
  | "idempotency_key_reused"
  | "storage_unavailable"
  | "storage_required"
  | "queue_full"
  | "github_unavailable"
  | "app_not_configured"
  | "internal_error";

export class TaskScorerError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    if (details) this.details = details;
  }
}

export class InvalidRequestError extends TaskScorerError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("invalid_request", message, details);
  }
}

export class ConfigError extends TaskScorerError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("invalid_config", message, details);
  }
}

/** The model answered, but not with a usable score after the retry and repair budget. */
export class ScorerFailedError extends TaskScorerError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super("scorer_failed", message, details, options);
  }
}

/** The model provider refused the request or could not be reached. */
export class ScorerUnavailableError extends TaskScorerError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super("scorer_unavailable", message, details, options);
  }
}

/** The model did not answer in time. */
export class ScorerTimeoutError extends TaskScorerError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super("scorer_timeout", message, details, options);
  }
}

/**
 * Access to the keyed API: a missing or bad key (401), a scope or plan that does not allow the operation
 * (403), a used-up allowance (429) or a reused idempotency key (422). Carries the response headers the
 * contract asks for (`WWW-Authenticate`, `Retry-After`, rate-limit headers).
 */
export class AccessError extends TaskScorerError {
  readonly headers: Record<string, string>;
  constructor(
    code: "unauthorized" | "forbidden" | "quota_exceeded" | "idempotency_key_reused" | "rate_limited",
    message: string,
    headers: Record<string, string> = {},
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
    this.headers = headers;
  }
}

export function isTaskScorerError(error: unknown): error is TaskScorerError {
  return error instanceof TaskScorerError;
}

/** A command line used wrongly (a missing argument, an unknown command): the CLIs print its message and exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
