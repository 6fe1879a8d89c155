import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { KeyAccess, Principal } from "../../accounts/key-access.js";
import type { ApprovalPolicy } from "../../core/approval.js";
import { ErrorBodySchema, ScoreReportSchema } from "../../core/score-report.schema.js";
import { scoreTask } from "../../core/score-task.js";
import type { ScoreOptions, Scorer } from "../../core/scorer.js";
import { ScoreRequestSchema } from "../../core/task-request.schema.js";
import { sendError } from "../http-errors.js";
import { FixedWindowLimiter } from "../rate-limit.js";

const JSON_TYPE_RE = /^application\/json\s*(;|$)/i;
/** Allowed on /score-task: anything else is a 405 with `Allow: POST`. */
const OTHER_METHODS = ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

export interface ScoreRouteOptions {
  scorer: Scorer;
  policy: ApprovalPolicy;
  clock?: (() => Date) | undefined;
  /** The report's deadline (REQUEST_TIMEOUT_SECONDS): every model call, retry and backoff is inside it. */
  requestTimeoutMs: number;
  /** Open mode's per-address quota (RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute?: number | undefined;
  /** Keys and plans (AUTH=keys). */
  access?: KeyAccess | undefined;
}

/**
 * Score options whose signal exists only once a scorer reads it: a slow scorer (a model) should stop working
 * for a client that has gone away, but one that never looks (the offline scorer) should not pay for a
 * controller and a close listener on every request. A class, not an object literal with a getter: V8 builds
 * a literal's accessor anew on every request.
 */
class AbortWhenClientLeaves implements ScoreOptions {
  private controller: AbortController | undefined;

  constructor(
    private readonly res: ServerResponse,
    readonly timeoutMs: number,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const made = new AbortController();
      this.controller = made;
      const res = this.res;
      if (res.closed) {
        if (!res.writableFinished) made.abort();
      } else {
        res.once("close", () => {
          if (!res.writableFinished) made.abort();
        });
      }
    }
    return this.controller.signal;
  }
}

export function abortWhenClientLeaves(res: ServerResponse, timeoutMs: number): ScoreOptions {
  return new AbortWhenClientLeaves(res, timeoutMs);
}

/** POST /score-task: the contract's one operation, open or keyed; other methods get 405. */
export function scoreTaskRoute(app: FastifyInstance, options: ScoreRouteOptions): void {
  const { access, requestTimeoutMs } = options;
  const limiter = options.rateLimitPerMinute ? new FixedWindowLimiter(options.rateLimitPerMinute) : undefined;
  const errorResponses = {
    400: ErrorBodySchema,
    413: ErrorBodySchema,
    415: ErrorBodySchema,
    ...(limiter ? { 429: ErrorBodySchema } : {}),
    502: ErrorBodySchema,
    503: ErrorBodySchema,
    504: ErrorBodySchema,
    ...(access
      ? { 401: ErrorBodySchema, 403: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema }
      : {}),
  };
  const principals = new WeakMap<FastifyRequest, Principal>();
  const scoreDeps = {
    scorer: options.scorer,
    policy: options.policy,
    ...(options.clock ? { clock: options.clock } : {}),
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();

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
        sendError(
          reply,
          "unsupported_media_type",
          "Send the body as JSON with the header `Content-Type: application/json`.",
        );
        return;
      }
      const wait = limiter ? limiter.take(request.ip) : 0;
      if (wait > 0) {
        sendError(reply, "rate_limited", `Too many requests from this address; try again in ${wait} s.`, {
          headers: { "retry-after": String(wait) },
        });
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
      const run = () =>
        scoreTask(request.body, scoreDeps, abortWhenClientLeaves(reply.raw, requestTimeoutMs));
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
      if (metered.json === undefined) return metered.report;
      // The text already stored: fastify sends a string with a JSON type as it is.
      reply.type("application/json; charset=utf-8");
      return metered.json;
    },
  });

  typed.route({
    method: [...OTHER_METHODS],
    url: "/score-task",
    exposeHeadRoute: false,
    schema: { hide: true },
    handler: async (request, reply) => {
      sendError(reply, "method_not_allowed", `${request.method} is not supported on /score-task; use POST.`, {
        headers: { allow: "POST" },
      });
    },
  });
}
