import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Probot, ProbotOctokit, type ApplicationFunction } from "probot";
import type { ErrorCode } from "../core/errors.js";
import { errorBody } from "../http/http-errors.js";
import type { Logger } from "pino";
import type { AppSettings } from "../config/app-env.schema.js";
import type { DeliveryIntake } from "../fleet/delivery-queues.js";

export interface ProbotHost {
  probot: Probot;
  /** Registers the webhook route on a fastify instance (an encapsulated scope of the REST server). */
  plugin: (app: FastifyInstance) => Promise<void>;
}

/**
 * Probot's Octokit retries 5xx and primary rate limits; its default for secondary rate limits is to
 * give up. GitHub's guidance is to wait for `retry-after` and try again, so we do, twice at most.
 */
export function appOctokit(logger: Logger): typeof ProbotOctokit {
  return ProbotOctokit.defaults((options: { throttle?: object }) => ({
    ...options,
    throttle: {
      ...options.throttle,
      onSecondaryRateLimit: (
        retryAfter: number,
        request: { method: string; url: string },
        _octokit: unknown,
        retryCount: number,
      ) => {
        logger.warn(
          { retryAfter, method: request.method, url: request.url, retryCount },
          "GitHub secondary rate limit: waiting, then retrying",
        );
        return retryCount < 2;
      },
    },
  }));
}

export function createProbot(
  settings: AppSettings,
  logger: Logger,
  Octokit: typeof ProbotOctokit = appOctokit(logger),
): Probot {
  return new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    baseUrl: settings.baseUrl,
    Octokit,
    log: logger.child({ name: "probot" }) as never,
  });
}

/** GitHub caps a webhook payload at 25 MB; the REST API's 1 MiB limit does not apply here. */
const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;
const JSON_TYPE_RE = /^\s*application\/json\s*(;|$)/i;

function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
) {
  return reply
    .code(status)
    .headers(headers)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorBody(code, message)));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Probot 14 has no router of its own: the app is loaded into Probot, and the webhook path is a
 * route of the REST server that verifies the signature itself, so a refused delivery gets the API's
 * error shape (401 `invalid_signature`) and the log says why, instead of Probot's middleware's
 * `{"error":"Error: [@octokit/webhooks] ..."}` and a bare status. The scope reads the body as raw
 * bytes: the signature is over the exact bytes GitHub sent.
 */
export async function probotHost(
  probot: Probot,
  appFn: ApplicationFunction,
  webhookPath: string,
  /** With a database: deliveries are stored before the 200 and handled from there (see fleet/). */
  intake?: DeliveryIntake,
): Promise<ProbotHost> {
  await probot.load(appFn, { cwd: process.cwd(), addHandler: () => {} });
  const plugin = async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: MAX_DELIVERY_BYTES },
      (_request, body, done) => done(null, body),
    );
    app.post(
      webhookPath,
      { schema: { hide: true }, bodyLimit: MAX_DELIVERY_BYTES },
      async (request, reply) => {
        const delivery = header(request, "x-github-delivery");
        const event = header(request, "x-github-event");
        const signature = header(request, "x-hub-signature-256");
        const type = header(request, "content-type");
        if (!type || !JSON_TYPE_RE.test(type)) {
          return sendError(
            reply,
            415,
            "unsupported_media_type",
            "GitHub webhooks must be sent as application/json.",
          );
        }
        if (!signature) {
          request.log.warn({ delivery, event }, "webhook refused: no X-Hub-Signature-256 header");
          return sendError(
            reply,
            401,
            "invalid_signature",
            "The delivery has no X-Hub-Signature-256 header; GitHub signs every delivery when the App has a webhook secret.",
          );
        }
        const raw = Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
        let valid = false;
        try {
          valid = await probot.webhooks.verify(raw, signature);
        } catch {
          // A malformed signature header: as unverifiable as a wrong one.
        }
        if (!valid) {
          request.log.warn(
            { delivery, event },
            "webhook refused: the signature does not match the payload and WEBHOOK_SECRET",
          );
          return sendError(
            reply,
            401,
            "invalid_signature",
            "The X-Hub-Signature-256 signature does not match the payload; check that WEBHOOK_SECRET is the App's webhook secret.",
          );
        }
        if (!event || !delivery) {
          return sendError(
            reply,
            400,
            "invalid_request",
            "A GitHub delivery carries X-GitHub-Event and X-GitHub-Delivery headers; this one lacks one.",
          );
        }
        let payload: unknown;
        try {
          payload = JSON.parse(raw);
        } catch {
          return sendError(reply, 400, "invalid_json", "The delivery body is not valid JSON.");
        }
        if (intake) {
          // Acknowledged only once stored: a crash after this loses nothing GitHub was told had arrived.
          // Hook id + GUID: every hook of one event shares the GUID, and a redelivery reuses it.
          const hook = header(request, "x-github-hook-id") ?? "0";
          const outcome = await intake.accept({ id: `${hook}:${delivery}`, guid: delivery, event, payload });
          return reply
            .code(200)
            .type("application/json; charset=utf-8")
            .send(JSON.stringify(outcome === "duplicate" ? { ok: true, duplicate: true } : { ok: true }));
        }
        // Handlers only enqueue, so this returns at once; the work happens in the job queue.
        await probot.receive({ id: delivery, name: event, payload } as Parameters<Probot["receive"]>[0]);
        return reply
          .code(200)
          .type("application/json; charset=utf-8")
          .send(JSON.stringify({ ok: true }));
      },
    );
    app.route({
      method: ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"],
      url: webhookPath,
      exposeHeadRoute: false,
      schema: { hide: true },
      handler: async (request, reply) =>
        sendError(
          reply,
          405,
          "method_not_allowed",
          `GitHub delivers webhooks to ${webhookPath} by POST; ${request.method} is not supported here.`,
          { allow: "POST" },
        ),
    });
  };
  return { probot, plugin };
}
