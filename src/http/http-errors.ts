import type { FastifyError, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isTaskScorerError, type ErrorCode } from "../core/errors.js";
import type { ErrorBody } from "../core/score-report.schema.js";

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** The contract's table: one status per code. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  invalid_signature: 401,
  scorer_failed: 502,
  scorer_unavailable: 503,
  scorer_timeout: 504,
  invalid_config: 500,
  unauthorized: 401,
  forbidden: 403,
  quota_exceeded: 429,
  idempotency_key_reused: 422,
  storage_unavailable: 503,
  storage_required: 503,
  queue_full: 503,
  github_unavailable: 503,
  app_not_configured: 404,
  internal_error: 500,
};

export function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/**
 * The one way an error is answered, on every route (the API's, the webhook's, registration's): the contract's
 * status for the code unless told otherwise, the JSON error body, and any headers (Retry-After, Allow).
 */
export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  options: { status?: number; headers?: Record<string, string>; details?: Record<string, unknown> } = {},
): FastifyReply {
  if (options.headers) reply.headers(options.headers);
  return reply
    .code(options.status ?? STATUS_BY_CODE[code])
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorBody(code, message, options.details)));
}

function httpError(code: ErrorCode, message: string, details?: Record<string, unknown>): HttpError {
  return { status: STATUS_BY_CODE[code], body: errorBody(code, message, details) };
}

/**
 * Every error a request can meet, mapped once. Fastify's own errors (body limit, bad JSON, media
 * type) and validation errors become the contract's codes; typed errors keep their code; anything
 * else is an internal error whose details stay in the log.
 */
export function toHttpError(error: unknown, maxBodyBytes: number): HttpError {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => {
      const path = v.instancePath.replace(/^\//, "").replace(/\//g, ".");
      return { field: path || "(body)", message: v.message ?? "is invalid" };
    });
    const first = issues[0];
    // A query parameter or a path segment: name it, since the message alone ("expected one of …") does not.
    const context = (error as { validationContext?: string }).validationContext;
    if (first && (context === "querystring" || context === "params")) {
      const where = context === "params" ? "path" : "query";
      const message =
        first.field === "(body)"
          ? `${first.message} in the ${where}`
          : `${first.field} in the ${where}: ${first.message}`;
      return httpError("invalid_request", message, { issues });
    }
    const message =
      first && first.field === "(body)"
        ? "The body must be a JSON object with a string `task` and an optional string `description`."
        : (first?.message ?? "The request body is invalid.");
    return httpError("invalid_request", message, { issues });
  }
  if (isTaskScorerError(error)) {
    const out = httpError(error.code, error.message, error.details);
    const headers = (error as { headers?: Record<string, string> }).headers;
    return headers ? { ...out, headers } : out;
  }

  const e = error as Partial<FastifyError> & { status?: number };
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return httpError(
        "payload_too_large",
        `The request body is larger than ${maxBodyBytes} bytes; send at most ${Math.floor(maxBodyBytes / 1024)} KiB.`,
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
        ? httpError(
            "unsupported_media_type",
            "Send the body as JSON with the header `Content-Type: application/json`.",
          )
        : httpError("invalid_json", "The Content-Length header does not match the body sent.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return httpError(
        "invalid_json",
        'The body is empty; send a JSON object such as {"task": "Add dark mode"}.',
      );
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return httpError("invalid_json", "The body is not valid JSON.");
  }
  if (e.name === "SyntaxError" || e.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return httpError("invalid_json", "The body is not valid JSON; check quotes, commas and brackets.");
  }
  if (e.statusCode === 413)
    return httpError("payload_too_large", `The request body is larger than ${maxBodyBytes} bytes.`);
  if (e.statusCode === 415) {
    return httpError(
      "unsupported_media_type",
      "Send the body as JSON with the header `Content-Type: application/json`.",
    );
  }
  if (isDatabaseUnreachable(e))
    return httpError(
      "storage_unavailable",
      "The database could not be reached, so nothing was stored or counted; try again in a moment.",
    );
  return httpError(
    "internal_error",
    "Something went wrong on our side; the request was not scored. Try again.",
  );
}

/**
 * A database that went away at run time (PostgreSQL restarting, a dropped connection, a pool that cannot
 * connect): a 503 the client can retry, not a 500. Codes: node's socket errors and PostgreSQL's class 08
 * (connection exception) and 57P (operator intervention).
 */
function isDatabaseUnreachable(e: { code?: unknown; message?: unknown }): boolean {
  const code = typeof e.code === "string" ? e.code : "";
  if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|08\w{3}|57P0[1-3]|3D000)$/.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end/i.test(
    message,
  );
}
