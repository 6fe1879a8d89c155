import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { stdSerializers } from "pino";
import { Probot, ProbotOctokit, type ApplicationFunction } from "probot";
import { sendError } from "../http/http-errors.js";
import type { Logger } from "pino";
import type { AppSettings } from "../config/app-env.schema.js";
import { namedChildren } from "../config/create-logger.js";
import type { DeliveryIntake } from "../fleet/delivery-intake.js";
import { QueueFullError } from "./job-queue.js";
import { payloadProblem } from "./webhook-payloads.schema.js";

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
    // Probot logs a handler's error with the event attached: the whole payload (issue bodies, e-mail
    // addresses) at error level. Only the event's id and name are kept.
    // Probot names its own children ("probot", then "event", "github"): joined, not repeated (namedChildren).
    log: namedChildren(logger, {}, { serializers: { err: safeErr } }) as never,
  });
}

type Serialized = Record<string, unknown> & { event?: { id?: unknown; name?: unknown }; errors?: unknown };
function strip(s: unknown): unknown {
  if (!s || typeof s !== "object") return s;
  const { event, errors, ...rest } = s as Serialized;
  return {
    ...rest,
    ...(event ? { event: { id: event.id, name: event.name } } : {}),
    ...(Array.isArray(errors) ? { errors: errors.map((e) => strip(stdSerializers.err(e as Error))) } : {}),
  };
}
export function safeErr(error: unknown): unknown {
  return error instanceof Error ? strip(stdSerializers.err(error)) : error;
}

/**
 * GitHub caps a webhook payload at 25 MB, but the events this App handles carry at most an issue's
 * and a comment's text (65,536 characters each, about 0.8 MB escaped at worst) beside their metadata.
 * An unauthenticated body is held in memory until its signature is checked, so the cap is what the
 * App needs, not what GitHub allows: 24 forged 25 MB posts once took the process from 120 to 459 MB.
 */
export const MAX_DELIVERY_BYTES = 4 * 1024 * 1024;
const SIGNATURE_RE = /^sha256=[0-9a-f]{64}$/i;
const JSON_TYPE_RE = /^\s*application\/json\s*(;|$)/i;

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
  /** The App's webhook secret: deliveries are verified over their exact bytes. */
  secret: string,
  /** With a database: deliveries are stored before the 200 and handled from there (see fleet/). */
  intake?: DeliveryIntake,
): Promise<ProbotHost> {
  await probot.load(appFn, { cwd: process.cwd(), addHandler: () => {} });
  const plugin = async (app: FastifyInstance) => {
    // Before a byte of the body is read: a delivery without a well-formed signature, or one larger than
    // any this App handles, is refused at once (the connection is not held for an unauthenticated body).
    app.addHook("onRequest", async (request, reply) => {
      if (request.method !== "POST") return;
      const signature = header(request, "x-hub-signature-256");
      if (!signature || !SIGNATURE_RE.test(signature)) {
        request.log.warn(
          { delivery: header(request, "x-github-delivery"), event: header(request, "x-github-event") },
          signature
            ? "webhook refused: malformed X-Hub-Signature-256 header"
            : "webhook refused: no X-Hub-Signature-256 header",
        );
        reply.header("connection", "close");
        return sendError(
          reply,
          "invalid_signature",
          signature
            ? "The X-Hub-Signature-256 header is not of the form sha256=<64 hex digits>."
            : "The delivery has no X-Hub-Signature-256 header; GitHub signs every delivery when the App has a webhook secret.",
        );
      }
      const declared = Number(request.headers["content-length"] ?? 0);
      if (declared > MAX_DELIVERY_BYTES) {
        request.log.warn({ declared }, "webhook refused: larger than any delivery this App handles");
        reply.header("connection", "close");
        return sendError(
          reply,
          "payload_too_large",
          `The delivery is larger than ${MAX_DELIVERY_BYTES / 1024 / 1024} MiB; the events this App handles are far smaller.`,
        );
      }
    });
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
        const signature = header(request, "x-hub-signature-256") ?? "";
        const type = header(request, "content-type");
        if (!type || !JSON_TYPE_RE.test(type)) {
          return sendError(
            reply,
            "unsupported_media_type",
            "GitHub webhooks must be sent as application/json.",
          );
        }
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        // Over the bytes GitHub sent, not a decoded string: no copy of an unauthenticated body is made.
        const expected = createHmac("sha256", secret).update(body).digest();
        const given = Buffer.from(signature.slice("sha256=".length), "hex");
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          request.log.warn(
            { delivery, event },
            "webhook refused: the signature does not match the payload and WEBHOOK_SECRET",
          );
          return sendError(
            reply,
            "invalid_signature",
            "The X-Hub-Signature-256 signature does not match the payload; check that WEBHOOK_SECRET is the App's webhook secret.",
          );
        }
        if (!event || !delivery) {
          return sendError(
            reply,
            "invalid_request",
            "A GitHub delivery carries X-GitHub-Event and X-GitHub-Delivery headers; this one lacks one.",
          );
        }
        let payload: unknown;
        try {
          payload = JSON.parse(body.toString("utf8"));
        } catch {
          return sendError(reply, "invalid_json", "The delivery body is not valid JSON.");
        }
        const problem = payloadProblem(event, payload);
        if (problem) {
          // The event's name only: the payload may hold people's text and addresses.
          request.log.warn({ delivery, event, problem }, "webhook refused: payload of the wrong shape");
          return sendError(reply, "invalid_request", problem);
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
        try {
          await probot.receive({ id: delivery, name: event, payload } as Parameters<Probot["receive"]>[0]);
        } catch (error) {
          const errors = error instanceof AggregateError ? error.errors : [error];
          const full = errors.find((e): e is QueueFullError => e instanceof QueueFullError);
          if (full) return sendError(reply, "queue_full", full.message, { headers: { "retry-after": "60" } });
          request.log.error(
            { delivery, event, err: errors.map((e) => (e instanceof Error ? e.message : String(e))) },
            "webhook handler failed",
          );
          return sendError(
            reply,
            "internal_error",
            "The delivery could not be handled; GitHub shows it as failed and it can be redelivered.",
          );
        }
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
          "method_not_allowed",
          `GitHub delivers webhooks to ${webhookPath} by POST; ${request.method} is not supported here.`,
          { headers: { allow: "POST" } },
        ),
    });
  };
  return { probot, plugin };
}

/**
 * The webhook path while the App has no credentials: a delivery (or a person trying the URL) is told that the
 * App is not configured here and how to configure it, rather than the API's general "nothing here". Answered
 * before any body is read.
 */
export function appNotConfiguredPlugin(webhookPath: string, options: { registration: boolean }) {
  const message = `The GitHub App is not configured on this server, so it does not accept webhooks at ${webhookPath}. Set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET from the App's settings page and restart the server${
    options.registration
      ? ', or open this server\'s start page (/) and choose "Register the GitHub App", which writes them to .env'
      : ""
  }; GitHub's deliveries are then accepted here.`;
  return async (app: FastifyInstance) => {
    app.route({
      method: ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"],
      url: webhookPath,
      exposeHeadRoute: false,
      schema: { hide: true },
      onRequest: async (request, reply) => {
        if (request.method === "POST")
          request.log.warn(
            { delivery: header(request, "x-github-delivery"), event: header(request, "x-github-event") },
            "webhook refused: the GitHub App is not configured (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET)",
          );
        reply.header("connection", "close");
        return sendError(reply, "app_not_configured", message);
      },
      handler: async (_request, reply) => sendError(reply, "app_not_configured", message),
    });
  };
}
