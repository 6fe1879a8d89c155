import type { FastifyInstance } from "fastify";
import { Probot, ProbotOctokit, createNodeMiddleware, type ApplicationFunction } from "probot";
import type { Logger } from "pino";
import type { AppSettings } from "../config/app-env.schema.js";

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

/**
 * Probot 14 has no router of its own: its node middleware is mounted on the webhook path of the
 * REST server. The scope drops fastify's body parsers, because Probot must read the raw bytes to
 * verify the signature.
 */
export async function probotHost(
  probot: Probot,
  appFn: ApplicationFunction,
  webhookPath: string,
): Promise<ProbotHost> {
  const middleware = await createNodeMiddleware(appFn, { probot, webhooksPath: webhookPath });
  const plugin = async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", (_request, _payload, done) => done(null));
    app.post(webhookPath, { schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      void Promise.resolve(
        middleware(request.raw, reply.raw, () => {
          if (!reply.raw.headersSent) {
            reply.raw.writeHead(404, { "content-type": "application/json" });
            reply.raw.end(JSON.stringify({ error: { code: "not_found", message: "Unknown webhook path." } }));
          }
        }),
      );
    });
  };
  return { probot, plugin };
}
