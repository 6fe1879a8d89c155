import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { ProbotOctokit } from "probot";
import type { JobQueue } from "./app/job-queue.js";
import type { BackfillRunner } from "./backlog/backfill-runner.js";
import type { BacklogStore } from "./backlog/backlog-store.js";
import { needsDatabase, type ServiceConfig } from "./config/service-config.js";
import { createServer } from "./http/build-server.js";
import { createMetrics, type ServiceMetrics } from "./http/metrics.js";
import { createScorer, type CreatedScorer } from "./llm/create-scorer.js";
import { adminChannelPlugin } from "./plugins/admin-channel-plugin.js";
import { appPlugin } from "./plugins/app-plugin.js";
import { backlogPlugin } from "./plugins/backlog-plugin.js";
import { keysPlugin } from "./plugins/keys-plugin.js";
import { registrationOffered, registrationPlugin } from "./plugins/registration-plugin.js";
import { restApiPlugin } from "./plugins/rest-api-plugin.js";
import { scoringPlugin } from "./plugins/scoring-plugin.js";
import { ShutdownClock } from "./plugins/service-plugin.js";
import { signInPlugin } from "./plugins/sign-in-plugin.js";
import { storagePlugin } from "./plugins/storage-plugin.js";
import { registrationTarget } from "./app/manifest-registration.js";

export interface Service {
  server: FastifyInstance;
  config: ServiceConfig;
  queue?: JobQueue | undefined;
  /** The silent backfill, when the App runs with storage. */
  backfill?: BackfillRunner | undefined;
  /** The backlog's store, when the service has a database. */
  backlogStore?: BacklogStore | undefined;
  /** Where the App receives deliveries, when it runs. */
  webhookPath?: string | undefined;
  /** Stop accepting, finish in-flight requests, then finish queued webhook work (bounded by `graceMs`). */
  close: (graceMs?: number) => Promise<void>;
}

export interface ComposeOptions {
  logger: Logger;
  version?: string;
  /** Tests swap in an Octokit without retries or throttling. */
  Octokit?: typeof ProbotOctokit;
  /** Tests and benchmarks swap in a slow or failing scorer. */
  scorer?: CreatedScorer;
  /** Tests pass the clock that decides the billing month. */
  clock?: () => Date;
  /** Where App registration writes the credentials; default `.env` in the working directory. */
  envFile?: string;
  metrics?: ServiceMetrics;
}

/**
 * Everything `npm start` runs, wired from the configuration (read once, by `loadServiceConfig`): one fastify
 * plugin per concern (src/plugins), each given its own section, registered in order. Closing the server stops
 * them in the reverse order (fastify's `onClose`): the App's work, the keys' ledger, the admin channel, storage.
 */
export async function composeService(config: ServiceConfig, options: ComposeOptions): Promise<Service> {
  const { logger, clock } = options;
  const { server: http, app, storage, keys } = config;
  const metrics = options.metrics ?? createMetrics({ processMetrics: true });
  const created = options.scorer ?? createScorer(config.llm, { logger });
  const registration = registrationOffered(config);
  const server = await createServer({
    loggerInstance: logger,
    version: options.version ?? "0.0.0",
    requestTimeoutMs: http.requestTimeoutMs,
    trustProxy: http.trustProxy,
    corsOrigins: http.corsOrigins,
    metrics,
    keys: keys.auth === "keys",
  });
  server.decorate("shutdown", new ShutdownClock());
  try {
    await server.register(storagePlugin, { storage, needed: needsDatabase(config), auth: keys.auth, logger });
    await server.register(adminChannelPlugin, { dataDir: storage.dataDir, logger, clock });
    await server.register(keysPlugin, { keys, fleet: config.fleet, clock });
    await server.register(scoringPlugin, {
      llm: config.llm,
      approval: config.approval,
      created,
      metrics,
      logger,
    });
    await server.register(restApiPlugin, {
      version: options.version ?? "0.0.0",
      requestTimeoutMs: http.requestTimeoutMs,
      metrics,
      appEnabled: app.credentials !== undefined,
      webPage: {
        scorer: created.description,
        registration: registration ? { target: registrationTarget(app.ghe) } : undefined,
      },
      ...(http.rateLimitPerMinute ? { rateLimitPerMinute: http.rateLimitPerMinute } : {}),
    });
    await server.register(signInPlugin, {
      signIn: config.auth.signIn,
      ghe: app.ghe,
      publicUrl: http.publicUrl,
      logger,
    });
    await server.register(backlogPlugin, {
      appEnabled: app.credentials !== undefined,
      logger,
      requestsPerMinute: http.backlogRequestsPerMinute,
    });
    await server.register(appPlugin, {
      app,
      fleet: config.fleet,
      auth: keys.auth,
      publicUrl: http.publicUrl,
      registration,
      metrics,
      logger,
      Octokit: options.Octokit,
      clock,
    });
    if (registration)
      await server.register(registrationPlugin, {
        app,
        publicUrl: http.publicUrl,
        envFile: options.envFile,
        logger,
      });
    await server.ready();
  } catch (err) {
    // What was opened (the database and its folder lock, Redis) is let go before the error is reported.
    await server.close().catch(() => undefined);
    throw err;
  }

  return {
    server,
    config,
    queue: server.githubApp?.queue,
    backfill: server.githubApp?.backfill,
    backlogStore: server.backlog.store,
    webhookPath: server.githubApp?.webhookPath,
    close: async (graceMs = ShutdownClock.DEFAULT_GRACE_MS) => {
      // One deadline for the whole shutdown, shared by the delivery intake and the job queue.
      server.shutdown.end = Date.now() + graceMs;
      await server.close();
    },
  };
}
