import { isUtf8 } from "node:buffer";
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { z } from "zod";
import type { ApprovalPolicy } from "../core/approval.js";
import { TaskScorerError } from "../core/errors.js";
import { ErrorBodySchema, ScoreReportSchema } from "../core/score-report.schema.js";
import type { ScoreOptions, Scorer } from "../core/scorer.js";
import { scoreTask } from "../core/score-task.js";
import { ScoreRequestSchema } from "../core/task-request.schema.js";
import type { KeyAccess, Principal } from "../accounts/key-access.js";
import { registerAccountRoutes } from "./account-routes.js";
import { errorBody, toHttpError } from "./http-errors.js";
import { FixedWindowLimiter } from "./rate-limit.js";
import { corsHook } from "./cors.js";
import { createMetrics, type ServiceMetrics } from "./metrics.js";
import { webPagePlugin, type WebPageOptions } from "./web-page.js";

export const MAX_BODY_BYTES = 1024 * 1024;
const REQUEST_ID_RE = /^[\w.:@/+=-]{1,128}$/;
const JSON_TYPE_RE = /^application\/json\s*(;|$)/i;
const UNSUPPORTED_MEDIA_TYPE_BODY = JSON.stringify(
  errorBody(
    "unsupported_media_type",
    "Send the body as JSON with the header `Content-Type: application/json`.",
  ),
);

export interface ServerDeps {
  scorer: Scorer;
  policy: ApprovalPolicy;
  clock?: () => Date;
  /** Pino options or an existing logger; `false` silences logs (tests). */
  logger?: FastifyServerOptions["logger"];
  loggerInstance?: FastifyServerOptions["loggerInstance"];
  rateLimitPerMinute?: number;
  requestTimeoutMs?: number;
  version?: string;
  /** Extra routes hosted by the same server (the GitHub App's webhook path). */
  plugins?: ((app: FastifyInstance) => Promise<void> | void)[];
  /** API keys and plans (AUTH=keys): every POST /score-task needs a key and counts against its plan. */
  access?: KeyAccess;
  /** fastify's trustProxy (TRUST_PROXY): whose X-Forwarded-For to believe for rate limits and logs. */
  trustProxy?: boolean | number | string[] | undefined;
  /** Browser origins allowed to call the API (CORS_ORIGINS); unset sends no CORS headers. */
  corsOrigins?: "*" | string[] | undefined;
  /** Shared with the App and the scorer; a fresh set when absent (tests). */
  metrics?: ServiceMetrics | undefined;
  /** Whether the GitHub App runs in this process (reported by /healthz). */
  appEnabled?: boolean;
  /** The start page; `registration` is set when the App can be registered from it. */
  webPage?: Pick<WebPageOptions, "registration"> & { scorer?: string };
}

/**
 * Score options whose signal exists only once a scorer reads it: a slow scorer (a model) should stop
 * working for a client that has gone away, but one that never looks (the offline scorer) should not
 * pay for a controller and a close listener on every request.
 */
function abortWhenClientLeaves(res: ServerResponse, timeoutMs: number): ScoreOptions {
  let controller: AbortController | undefined;
  return {
    timeoutMs,
    get signal() {
      if (!controller) {
        const made = new AbortController();
        controller = made;
        if (res.closed) {
          if (!res.writableFinished) made.abort();
        } else {
          res.once("close", () => {
            if (!res.writableFinished) made.abort();
          });
        }
      }
      return controller.signal;
    },
  };
}

/** Allowed on /score-task: anything else is a 405 with `Allow: POST`. */
const OTHER_METHODS = ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** A number of hops becomes fastify's function form (its types take no number). */
function trustProxyOption(
  value: ServerDeps["trustProxy"],
): boolean | string[] | ((a: string, hop: number) => boolean) {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value ?? false;
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const requestTimeout = deps.requestTimeoutMs ?? 30_000;
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    bodyLimit: MAX_BODY_BYTES,
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    // Client ids are echoed when they look like ids; anything else gets a fresh one.
    genReqId: (req) => {
      const sent = req.headers["x-request-id"];
      return typeof sent === "string" && REQUEST_ID_RE.test(sent) ? sent : randomUUID();
    },
    // Slow clients (slowloris) are cut off instead of holding a socket forever: the whole request
    // must arrive within requestTimeout, the headers sooner, and node checks often enough to notice.
    requestTimeout,
    // An idle connection is cut 5 s after the report deadline (requestTimeout, below), so a client
    // always receives the JSON 504 first.
    connectionTimeout: requestTimeout + 5_000,
    keepAliveTimeout: 5_000,
    http: {
      headersTimeout: Math.min(10_000, requestTimeout),
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeout / 4))),
    },
    // During shutdown, requests already on an open connection are served (with Connection: close),
    // not answered with fastify's own 503 body: nothing already accepted is lost.
    return503OnClosing: false,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: false },
    trustProxy: trustProxyOption(deps.trustProxy),
  });
  const metrics = deps.metrics ?? createMetrics();

  app.setValidatorCompiler(validatorCompiler);
  // Responses are built by the core from validated parts, so re-validating them on the way out only
  // costs time on the hot path; the response schemas still document the API in OpenAPI.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Strict UTF-8: a body with invalid bytes is rejected, not silently repaired with U+FFFD.
  // Prototype keys are dropped like any other unknown field, so they can never pollute an object.
  const defaultJson = app.getDefaultJsonParser("remove", "remove");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(
        new TaskScorerError("invalid_json", "The body is not valid UTF-8 text; send JSON encoded as UTF-8."),
        undefined,
      );
      return;
    }
    defaultJson(req, bytes.toString("utf8"), done);
  });

  // Hooks use callbacks, not async functions: they run on every request, and a promise each costs
  // measurable throughput.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });

  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      {
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

  app.setErrorHandler((error, request, reply) => {
    const mapped = toHttpError(error, MAX_BODY_BYTES);
    if (mapped.status >= 500 && !(error instanceof TaskScorerError)) {
      request.log.error({ err: error }, "unhandled error");
    } else if (mapped.status >= 500) {
      request.log.warn({ code: mapped.body.error.code, message: mapped.body.error.message }, "scorer error");
    }
    if (mapped.headers) reply.headers(mapped.headers);
    return reply
      .code(mapped.status)
      .type("application/json; charset=utf-8")
      .send(JSON.stringify(mapped.body));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .type("application/json; charset=utf-8")
      .send(
        JSON.stringify(
          errorBody(
            "not_found",
            `There is nothing at ${request.method} ${request.url.split("?")[0]}; the API is POST /score-task.`,
          ),
        ),
      );
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "task-scorer",
        version: deps.version ?? "0.1.0",
        description: deps.access
          ? "Scores a development task with five expert personas and returns one consensus report. Every request needs an API key (`Authorization: Bearer tsk_…`) and counts against its plan."
          : "Scores a development task with five expert personas and returns one consensus report. Open API: no credential is needed.",
      },
      ...(deps.access
        ? {
            components: {
              securitySchemes: {
                apiKey: {
                  type: "http" as const,
                  scheme: "bearer",
                  description: "An API key: tsk_ and 36 characters.",
                },
              },
            },
            security: [{ apiKey: [] }],
          }
        : {}),
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  // Swagger UI's files come from the package itself (no CDN), with the plugin's own CSP for its page.
  // Its CSP is the plugin's (hashes for Swagger UI's own inline bits) minus what an offline page on
  // plain HTTP must not have: outside sources and `upgrade-insecure-requests`, which would send the
  // page's own files to https:// on a LAN address.
  await app.register(fastifySwaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header.replace(/ https:| validator\.swagger\.io/g, "").replace(/\s*upgrade-insecure-requests;?/, ""),
  });
  if (deps.corsOrigins) corsHook(app, deps.corsOrigins);

  const limiter = deps.rateLimitPerMinute ? new FixedWindowLimiter(deps.rateLimitPerMinute) : undefined;
  const errorResponses = {
    400: ErrorBodySchema,
    413: ErrorBodySchema,
    415: ErrorBodySchema,
    ...(limiter ? { 429: ErrorBodySchema } : {}),
    502: ErrorBodySchema,
    503: ErrorBodySchema,
    504: ErrorBodySchema,
  };

  const access = deps.access;
  const principals = new WeakMap<FastifyRequest, Principal>();
  if (access)
    Object.assign(errorResponses, {
      401: ErrorBodySchema,
      403: ErrorBodySchema,
      422: ErrorBodySchema,
      429: ErrorBodySchema,
    });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const scoreDeps = {
    scorer: deps.scorer,
    policy: deps.policy,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };

  typed.route({
    method: "POST",
    url: "/score-task",
    schema: {
      summary: "Score a task",
      description:
        "Returns five persona scores (integers 1-10, in the order Revenue Expert, Technical Architect, UX Designer, Product Manager, Marketing Strategist) and the consensus. `task` and `description` are echoed exactly as received.",
      body: ScoreRequestSchema,
      response: { 200: ScoreReportSchema, ...errorResponses },
    },
    // Checked before the body is read, so a non-JSON upload is refused without buffering it.
    onRequest: (request, reply, done) => {
      const type = request.headers["content-type"];
      if (typeof type !== "string" || !JSON_TYPE_RE.test(type)) {
        reply.code(415).type("application/json; charset=utf-8").send(UNSUPPORTED_MEDIA_TYPE_BODY);
        return;
      }
      const wait = limiter ? limiter.take(request.ip) : 0;
      if (wait > 0) {
        reply
          .code(429)
          .header("retry-after", String(wait))
          .type("application/json; charset=utf-8")
          .send(
            JSON.stringify(
              errorBody("rate_limited", `Too many requests from this address; try again in ${wait} s.`),
            ),
          );
        return;
      }
      done();
    },
    // With keys on, the key is checked before the body is read: a caller without one costs nothing.
    ...(access
      ? {
          preParsing: async (request: FastifyRequest) => {
            principals.set(request, await access.authenticate(request.headers.authorization, "score"));
          },
        }
      : {}),
    handler: async (request, reply) => {
      // One deadline for the whole report (every model call, retry and backoff): REQUEST_TIMEOUT_SECONDS.
      const run = () => scoreTask(request.body, scoreDeps, abortWhenClientLeaves(reply.raw, requestTimeout));
      const principal = access && principals.get(request);
      if (!access || !principal) {
        const outcome = await run();
        reply.header("x-scorer", outcome.scorer);
        return outcome.report;
      }
      const idempotencyKey = request.headers["idempotency-key"];
      const metered = await access.meteredScore(
        principal,
        typeof idempotencyKey === "string" ? idempotencyKey : undefined,
        request.body,
        async () => {
          const outcome = await run();
          reply.header("x-scorer", outcome.scorer);
          return outcome.report;
        },
      );
      reply.headers({ ...metered.headers, "x-report-id": metered.reportId });
      return metered.report;
    },
  });

  typed.route({
    method: [...OTHER_METHODS],
    url: "/score-task",
    exposeHeadRoute: false,
    schema: { hide: true },
    handler: async (request, reply) => {
      reply
        .code(405)
        .header("allow", "POST")
        .type("application/json; charset=utf-8")
        .send(
          JSON.stringify(
            errorBody("method_not_allowed", `${request.method} is not supported on /score-task; use POST.`),
          ),
        );
    },
  });

  typed.get(
    "/healthz",
    {
      schema: {
        summary: "Liveness",
        response: {
          200: z.object({
            status: z.literal("ok"),
            version: z.string(),
            scorer: z.string(),
            app: z.boolean().describe("Whether the GitHub App runs in this process"),
          }),
        },
      },
    },
    async () => ({
      status: "ok" as const,
      version: deps.version ?? "0.0.0",
      scorer: deps.scorer.name,
      app: deps.appEnabled ?? false,
    }),
  );

  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  await app.register(
    webPagePlugin({
      policy: deps.policy,
      scorer: deps.webPage?.scorer ?? deps.scorer.name,
      registration: deps.webPage?.registration,
    }),
  );

  typed.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  if (access) registerAccountRoutes(typed, access);
  for (const plugin of deps.plugins ?? []) await app.register(async (scope) => plugin(scope));

  await app.ready();
  return app;
}
