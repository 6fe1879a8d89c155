import type { FastifyInstance } from "fastify";
import { TaskScorerError, type ErrorCode } from "../../core/errors.js";
import { sendError, toHttpError } from "../http-errors.js";

/**
 * Every error, caught once: the contract's status and JSON body for each code. Unexpected errors are logged
 * with their stack (never sent); a scorer's failures are logged as warnings; unknown paths get the JSON 404.
 */
export function errorReplies(app: FastifyInstance, maxBodyBytes: number): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toHttpError(error, maxBodyBytes);
    if (mapped.status >= 500 && !(error instanceof TaskScorerError)) {
      request.log.error({ err: error }, "unhandled error");
    } else if (mapped.status >= 500) {
      request.log.warn({ code: mapped.body.error.code, message: mapped.body.error.message }, "scorer error");
    }
    const { code, message, details } = mapped.body.error;
    return sendError(reply, code as ErrorCode, message, {
      status: mapped.status,
      ...(mapped.headers ? { headers: mapped.headers } : {}),
      ...(details ? { details } : {}),
    });
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(
      reply,
      "not_found",
      `There is nothing at ${request.method} ${request.url.split("?")[0]}; the API is POST /score-task.`,
    );
  });
}
