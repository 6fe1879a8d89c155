import type { FastifyInstance } from "fastify";
import type { ServiceMetrics } from "../metrics.js";

/**
 * Every request's id in its answer, one JSON log line when it is done, and its count in the metrics. Hooks
 * use callbacks, not async functions: they run on every request, and a promise each costs throughput.
 */
export function requestLogAndMetrics(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });

  app.addHook("onResponse", (request, reply, done) => {
    // Through the service logger with the id in the line (the same line a request child would write),
    // so the request's own logger is never made for a request that goes well (see request-logger.ts).
    app.log.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url.split("?")[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        scorer: reply.getHeader("x-scorer"),
        // The client's address: behind a proxy, only with TRUST_PROXY (otherwise the proxy's).
        ip: request.ip,
      },
      "request",
    );
    metrics.observeRequest(request.method, request.routeOptions.url ?? "(no route)", reply.statusCode);
    done();
  });
}
