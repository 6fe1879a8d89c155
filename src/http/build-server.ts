import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { KeyAccess } from "../accounts/key-access.js";
import type { ApprovalPolicy } from "../core/approval.js";
import type { Scorer } from "../core/scorer.js";
import { sharedJson } from "../core/shared-json.js";
import { corsHook } from "./cors.js";
import { scoreRequestFirst } from "./score-request-validator.js";
import { createMetrics, type ServiceMetrics } from "./metrics.js";
import { errorReplies } from "./plugins/errors.js";
import { strictJsonBodies } from "./plugins/json-body.js";
import { openApiDocs, openApiRoute } from "./plugins/openapi.js";
import { RequestLogController, requestLogAndMetrics } from "./plugins/request-log.js";
import { lazyRequestLogger } from "./request-logger.js";
import { registerAccountRoutes } from "./routes/accounts.js";
import { healthRoute, metricsRoute } from "./routes/health.js";
import { scoreTaskRoute } from "./routes/score-task.js";
import { backlogTasksRoute, type BacklogRouteOptions } from "./routes/backlog-tasks.js";
import { webPagePlugin, type WebPageOptions } from "./routes/web-page.js";
import { boardPagePlugin } from "./routes/board-page.js";
import { signInRoutes, type SignInRouteOptions } from "./routes/sign-in.js";

/** 4 MiB: a `diff` of up to 3,000,000 characters (issue 31) with its JSON escapes and the task around it. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const REQUEST_ID_RE = /^[\w.:@/+=-]{1,128}$/;

/**
 * The parts every request passes through that `createServer` adds, each of which the HTTP path benchmark
 * (bench/http-hooks-bench.ts) leaves out one at a time to measure what it costs. Nothing else sets them.
 */
export const HOT_PATH_PARTS = [
  "request-id",
  "request-logger",
  "access-log",
  "metrics",
  "strict-json",
  "validation",
  "shared-json",
  "timeouts",
  "openapi",
] as const;
export type HotPathPart = (typeof HOT_PATH_PARTS)[number];

export interface ServerDeps {
  scorer: Scorer;
  policy: ApprovalPolicy;
  clock?: (() => Date) | undefined;
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
  /** The backlog's API (its store is absent without a database: the route then says so). */
  backlog?: BacklogRouteOptions;
  /** "Sign in with GitHub" for private repositories' boards (its routes answer "not configured" without settings). */
  signIn?: SignInRouteOptions;
  /** The start page; `registration` is set when the App can be registered from it. */
  webPage?: Pick<WebPageOptions, "registration"> & { scorer?: string; githubWebUrl?: string };
  /** The benchmark's (see HOT_PATH_PARTS). */
  leaveOut?: readonly HotPathPart[] | undefined;
}

/** A number of hops becomes fastify's function form (its types take no number). */
function trustProxyOption(
  value: ServerDeps["trustProxy"],
): boolean | string[] | ((a: string, hop: number) => boolean) {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value ?? false;
}

/** The parts of `ServerDeps` the bare server needs: its options and the hooks every route shares. */
export type BaseServerDeps = Pick<
  ServerDeps,
  | "logger"
  | "loggerInstance"
  | "requestTimeoutMs"
  | "version"
  | "trustProxy"
  | "corsOrigins"
  | "metrics"
  | "leaveOut"
> & {
  /** Whether the API takes keys (AUTH=keys): the OpenAPI document then says so. */
  keys: boolean;
};

/**
 * The bare server: fastify's options, validation and serialisation, request logs and metrics, error replies,
 * the OpenAPI document and CORS. Not ready: routes and the service's plugins are registered on it next.
 */
export async function createServer(deps: BaseServerDeps): Promise<FastifyInstance> {
  const requestTimeout = deps.requestTimeoutMs ?? 30_000;
  const without = new Set(deps.leaveOut);
  const logController = new RequestLogController();
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    bodyLimit: MAX_BODY_BYTES,
    // One line per request, ours (see plugins/request-log.ts), and the request id on every answer.
    logController,
    ...(without.has("request-logger") ? {} : { childLoggerFactory: lazyRequestLogger }),
    requestIdHeader: false,
    // Client ids are echoed when they look like ids; anything else gets a fresh one.
    ...(without.has("request-id")
      ? {}
      : {
          genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
            const sent = req.headers["x-request-id"];
            return typeof sent === "string" && REQUEST_ID_RE.test(sent) ? sent : randomUUID();
          },
        }),
    ...(without.has("timeouts")
      ? {}
      : {
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
        }),
    // During shutdown, requests already on an open connection are served (with Connection: close),
    // not answered with fastify's own 503 body: nothing already accepted is lost.
    return503OnClosing: false,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: false },
    trustProxy: trustProxyOption(deps.trustProxy),
  });
  const metrics = deps.metrics ?? createMetrics();

  app.setValidatorCompiler(
    // Without validation, the defaults zod would fill in (the benchmark sends a task only).
    without.has("validation")
      ? () => (value: unknown) => ({ value: { description: "", ...(value as object) } })
      : scoreRequestFirst,
  );
  // Responses are built by the core from validated parts, so re-validating them on the way out only
  // costs time on the hot path; the response schemas still document the API in OpenAPI.
  // JSON.stringify's text, with the shared parts of a repeated task's report reused (see shared-json.ts).
  app.setSerializerCompiler(() => (without.has("shared-json") ? JSON.stringify : sharedJson));
  if (!without.has("strict-json")) strictJsonBodies(app);
  requestLogAndMetrics(app, metrics, {
    controller: logController,
    hasLogger: Boolean(deps.loggerInstance ?? deps.logger),
    parts: {
      requestId: !without.has("request-id"),
      accessLog: !without.has("access-log"),
      metrics: !without.has("metrics"),
    },
  });
  errorReplies(app, MAX_BODY_BYTES);
  if (!without.has("openapi")) await openApiDocs(app, { version: deps.version ?? "0.1.0", keys: deps.keys });
  if (deps.corsOrigins) corsHook(app, deps.corsOrigins);
  return app;
}

/** What the REST API's own routes need (scoring, health, metrics, the start page, OpenAPI, accounts). */
export type RestApiDeps = Pick<
  ServerDeps,
  | "scorer"
  | "policy"
  | "clock"
  | "rateLimitPerMinute"
  | "requestTimeoutMs"
  | "version"
  | "access"
  | "metrics"
  | "appEnabled"
  | "webPage"
>;

/** POST /score-task, the health and metrics routes, the start page, /openapi.json and, with keys, the accounts'. */
export async function restApiRoutes(app: FastifyInstance, deps: RestApiDeps): Promise<void> {
  scoreTaskRoute(app, {
    scorer: deps.scorer,
    policy: deps.policy,
    clock: deps.clock,
    requestTimeoutMs: deps.requestTimeoutMs ?? 30_000,
    rateLimitPerMinute: deps.rateLimitPerMinute,
    access: deps.access,
  });
  healthRoute(app, {
    version: deps.version ?? "0.0.0",
    scorer: deps.scorer.name,
    app: deps.appEnabled ?? false,
  });
  metricsRoute(app, deps.metrics ?? createMetrics());
  await app.register(
    webPagePlugin({
      policy: deps.policy,
      scorer: deps.webPage?.scorer ?? deps.scorer.name,
      keys: deps.access !== undefined,
      registration: deps.webPage?.registration,
    }),
  );
  // Absent only when the benchmark leaves the OpenAPI plugin out.
  if (app.hasDecorator("swagger")) openApiRoute(app);
  if (deps.access) registerAccountRoutes(app.withTypeProvider<ZodTypeProvider>(), deps.access);
}

/** The backlog's API and its board page. */
export async function backlogRoutes(
  app: FastifyInstance,
  deps: { backlog?: BacklogRouteOptions | undefined; githubWebUrl?: string | undefined; signIn: boolean },
): Promise<void> {
  backlogTasksRoute(app, deps.backlog ?? {});
  await app.register(
    boardPagePlugin({ githubWebUrl: deps.githubWebUrl ?? "https://github.com", signIn: deps.signIn }),
  );
}

/** The whole HTTP server in one call, ready (tests, benchmarks, the schemas); the service composes the same parts. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const metrics = deps.metrics ?? createMetrics();
  const app = await createServer({ ...deps, metrics, keys: deps.access !== undefined });
  await restApiRoutes(app, { ...deps, metrics });
  await signInRoutes(
    app,
    deps.signIn ?? { github: { webUrl: "https://github.com", apiUrl: "https://api.github.com" } },
  );
  await backlogRoutes(app, {
    backlog: deps.backlog,
    githubWebUrl: deps.webPage?.githubWebUrl,
    signIn: deps.signIn?.settings !== undefined,
  });
  for (const plugin of deps.plugins ?? []) await app.register(async (scope) => plugin(scope));

  await app.ready();
  return app;
}
