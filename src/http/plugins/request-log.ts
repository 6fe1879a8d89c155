import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { AccessLog } from "../access-log.js";
import type { ServiceMetrics } from "../metrics.js";

type Done = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * fastify's log controller, which it calls for every request it makes (`incomingRequest`) and, when the server has
 * a logger, for every response once it is finished (`requestCompleted`): the request's id goes on its answer and
 * its access line and count are recorded there, without an `onRequest` and an `onResponse` hook. Each hook is a
 * pass through fastify's hook runner (its iterator, a callback, the route's hook list) on every request; these
 * calls happen anyway. fastify's own per-request lines stay off (`disableRequestLogging`): the access line is ours.
 */
export class RequestLogController extends LogController {
  private requestId = false;
  private done: Done | undefined;

  constructor() {
    super({ disableRequestLogging: true });
  }

  /** Called by `requestLogAndMetrics` once the server (and so its logger) exists. */
  attach(parts: { requestId: boolean; done?: Done | undefined }): void {
    this.requestId = parts.requestId;
    this.done = parts.done;
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.requestId) reply.header("x-request-id", request.id);
  }

  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    this.done?.(request, reply);
  }
}

/**
 * Every request's id in its answer, one JSON log line when it is done (written in batches, see access-log.ts),
 * and its count in the metrics, through the server's `RequestLogController`. fastify reports a finished response
 * to its log controller only when the server has a logger; without one (`logger: false`, tests) the line and the
 * count are recorded by an `onResponse` hook instead. Callbacks, not async functions: they run on every request,
 * and a promise each costs throughput.
 */
export function requestLogAndMetrics(
  app: FastifyInstance,
  metrics: ServiceMetrics,
  options: {
    controller: RequestLogController;
    /** Whether fastify was given a logger (`logger` or `loggerInstance`): it then calls `requestCompleted`. */
    hasLogger: boolean;
    /** All on but in the benchmark, which leaves each out in turn to measure it. */
    parts?: { requestId: boolean; accessLog: boolean; metrics: boolean };
  },
): void {
  const parts = options.parts ?? { requestId: true, accessLog: true, metrics: true };
  // Through the service logger with the id in the line (the same line a request child would write),
  // so the request's own logger is never made for a request that goes well (see request-logger.ts).
  const access = new AccessLog(app.log);
  const done: Done | undefined =
    parts.accessLog && parts.metrics
      ? (request, reply) => {
          access.record(request, reply);
          metrics.observeRequest(request.method, request.routeOptions.url ?? "(no route)", reply.statusCode);
        }
      : parts.accessLog
        ? (request, reply) => access.record(request, reply)
        : parts.metrics
          ? (request, reply) =>
              metrics.observeRequest(
                request.method,
                request.routeOptions.url ?? "(no route)",
                reply.statusCode,
              )
          : undefined;
  options.controller.attach({ requestId: parts.requestId, done: options.hasLogger ? done : undefined });
  if (!options.hasLogger && done)
    app.addHook("onResponse", (request, reply, next) => {
      done(request, reply);
      next();
    });
  // After the last request has been answered: nothing is left unwritten when the server stops.
  app.addHook("onClose", (_app, next) => {
    access.flush();
    next();
  });
}
