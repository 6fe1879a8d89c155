import type { FastifyInstance } from "fastify";

/**
 * Opt-in CORS (CORS_ORIGINS): without it the API sends no CORS headers and browsers keep other
 * sites out. With it, allowed origins may call the API and read its ids; a preflight is answered
 * here, before the route's 405 for OPTIONS.
 */
export function corsHook(app: FastifyInstance, origins: "*" | readonly string[]): void {
  const allowed = origins === "*" ? undefined : new Set(origins);
  app.addHook("onRequest", (request, reply, done) => {
    const origin = request.headers.origin;
    if (typeof origin !== "string" || (allowed && !allowed.has(origin))) {
      done();
      return;
    }
    reply.header("access-control-allow-origin", allowed ? origin : "*");
    if (allowed) reply.header("vary", "Origin");
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"]) {
      reply
        .code(204)
        .header("access-control-allow-methods", "GET, POST")
        // The keyed API's headers too: a browser client sends its key and an idempotency key.
        .header("access-control-allow-headers", "authorization, content-type, idempotency-key, x-request-id")
        .header("access-control-max-age", "600")
        .send();
      return;
    }
    reply.header(
      "access-control-expose-headers",
      "x-request-id, x-scorer, x-report-id, location, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, idempotent-replayed, www-authenticate",
    );
    done();
  });
}
