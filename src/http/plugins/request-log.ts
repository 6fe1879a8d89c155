import type { FastifyInstance } from "fastify";
import { AccessLog } from "../access-log.js";
import type { ServiceMetrics } from "../metrics.js";

/**
 * Every request's id in its answer, one JSON log line when it is done (written in batches, see access-log.ts),
 * and its count in the metrics. Hooks use callbacks, not async functions: they run on every request, and a
 * promise each costs throughput.
 */
export function requestLogAndMetrics(
  app: FastifyInstance,
  metrics: ServiceMetrics,
  /** All on but in the benchmark, which leaves each out in turn to measure it. */
  parts = { requestId: true, accessLog: true, metrics: true },
): void {
  if (parts.requestId)
    app.addHook("onRequest", (request, reply, done) => {
      reply.header("x-request-id", request.id);
      done();
    });

  // Through the service logger with the id in the line (the same line a request child would write),
  // so the request's own logger is never made for a request that goes well (see request-logger.ts).
  const access = new AccessLog(app.log);
  app.addHook("onResponse", (request, reply, done) => {
    if (parts.accessLog) access.record(request, reply);
    if (parts.metrics)
      metrics.observeRequest(request.method, request.routeOptions.url ?? "(no route)", reply.statusCode);
    done();
  });
  // After the last request has been answered: nothing is left unwritten when the server stops.
  app.addHook("onClose", (_app, done) => {
    access.flush();
    done();
  });
}
