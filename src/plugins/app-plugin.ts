import type { Logger } from "pino";
import { ProbotOctokit } from "probot";
import { AccountStore } from "../accounts/account-store.js";
import { AppMetering } from "../accounts/app-metering.js";
import { appBackfillDeps } from "../app/backlog-app.js";
import { deliveryGiveUp, deliveryHandler } from "../app/delivery-handler.js";
import { appNotConfiguredPlugin, createProbot, probotHost } from "../app/github-app-plugin.js";
import { JobQueue } from "../app/job-queue.js";
import { learnFromClosedIssues, RELEARN_MS } from "../app/learning-app.js";
import { checkAppIdentity } from "../app/startup-check.js";
import { taskScorerApp } from "../app/task-scorer-app.js";
import { BackfillRunner } from "../backlog/backfill-runner.js";
import type { ServiceConfig } from "../config/service-config.js";
import type { DeliveryIntake } from "../fleet/delivery-intake.js";
import { DatabaseDeliveries } from "../fleet/delivery-queues.js";
import { RedisDeliveries } from "../fleet/redis-deliveries.js";
import { DeliveryStore } from "../fleet/delivery-store.js";
import type { ServiceMetrics } from "../http/metrics.js";
import { servicePlugin } from "./service-plugin.js";

export interface AppPluginOptions {
  app: ServiceConfig["app"];
  fleet: ServiceConfig["fleet"];
  /** AUTH: with keys, the App meters each GitHub account too. */
  auth: ServiceConfig["keys"]["auth"];
  publicUrl: string | undefined;
  /** Whether the start page offers to register the App (said on the webhook path while it has no credentials). */
  registration: boolean;
  metrics: ServiceMetrics;
  logger: Logger;
  /** Tests swap in an Octokit without retries or throttling. */
  Octokit?: typeof ProbotOctokit | undefined;
  clock?: (() => Date) | undefined;
}

/**
 * The GitHub App: Probot, the job queue, where deliveries wait (the database, or Redis for a fleet), the silent
 * backfill, and the webhook route. Without credentials, the webhook path says the App is not configured. On close:
 * the backfill hands its repository back, the intake stops taking work, and the queue is drained, all by the
 * shutdown's one deadline.
 */
export const appPlugin = servicePlugin("github-app", async (server, options: AppPluginOptions) => {
  const { app: appConfig, fleet, logger } = options;
  const settings = appConfig.credentials;
  if (!settings) {
    logger.info(
      `GitHub App disabled: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET are not set; serving the REST API only${options.registration ? " (register the App from the start page)" : ""}`,
    );
    server.decorate("githubApp", undefined);
    await server.register(
      appNotConfiguredPlugin(appConfig.webhookPath, { registration: options.registration }),
    );
    return;
  }
  const { database, scoring, backlog } = server;
  const { scorer, description, policy } = scoring;
  const { calibrations, outputProblems } = backlog;
  const queue = new JobQueue({
    concurrency: settings.queueConcurrency,
    maxPending: settings.queueMaxPending,
    maxPendingPerInstallation: settings.queueMaxPendingPerInstallation,
    jobTimeoutMs: settings.jobTimeoutMs,
    logger,
  });
  const probot = createProbot(
    settings,
    logger,
    options.Octokit ??
      (!appConfig.githubThrottle
        ? ProbotOctokit.defaults((o: { throttle?: object }) => ({
            ...o,
            throttle: { ...o.throttle, enabled: false },
          }))
        : undefined),
  );

  let intake: DeliveryIntake | undefined;
  if (database) {
    const handle = deliveryHandler(probot, queue);
    const deliveries = new DeliveryStore(database.db);
    intake = fleet.redisUrl
      ? new RedisDeliveries(deliveries, handle, logger, {
          redisUrl: fleet.redisUrl,
          prefix: fleet.redisPrefix,
          concurrency: settings.queueConcurrency,
          jobsPerSecond: fleet.jobsPerSecond,
          lockMs: fleet.lockMs,
          attempts: fleet.attempts,
        })
      : new DatabaseDeliveries(deliveries, handle, logger, { giveUp: deliveryGiveUp(probot) });
    logger.info(
      { deliveries: intake.kind },
      intake.kind === "redis"
        ? "webhook deliveries: stored in the database, queued in Redis (BullMQ) for every instance"
        : "webhook deliveries: stored in the database before they are acknowledged",
    );
  }

  const learnedLabelNames = calibrations
    ? { learnedLabelNames: (r: string) => calibrations.labelNames(r) }
    : {};
  const backfill = backlog.store
    ? new BackfillRunner({
        store: backlog.store,
        ...appBackfillDeps({
          probot,
          store: backlog.store,
          scorer,
          policy,
          clock: options.clock,
          calibrations,
          ...learnedLabelNames,
          outputProblems,
        }),
        // Learning from each repository's own closed issues (issue 18): on install, /score learn, weekly.
        ...(calibrations
          ? { learn: learnFromClosedIssues(calibrations, logger), relearnMs: RELEARN_MS }
          : {}),
        usesModel: scoring.usesModel,
        logger,
        ...(options.clock ? { clock: options.clock } : {}),
      })
    : undefined;

  const boardBase = options.publicUrl?.replace(/\/+$/, "") ?? "";
  const host = await probotHost(
    probot,
    taskScorerApp({
      scorer,
      scorerDescription: description,
      policy,
      queue,
      ...learnedLabelNames,
      outputProblems,
      // Plans are part of the keyed service: with AUTH=keys the App meters each GitHub account too.
      ...(database && options.auth === "keys"
        ? { metering: new AppMetering(new AccountStore(database.db), options.clock) }
        : {}),
      ...(backlog.store && backfill
        ? {
            backlog: {
              store: backlog.store,
              runner: backfill,
              boardUrl: (repository: string) => `${boardBase}/board/${repository}`,
              calibrations,
            },
          }
        : {}),
    }),
    settings.webhookPath,
    settings.webhookSecret,
    intake,
  );
  await server.register(async (scope) => host.plugin(scope));
  options.metrics.setSources({ queue });
  if (appConfig.startupCheck) await checkAppIdentity(probot, logger);
  logger.info(
    {
      appId: settings.appId,
      webhookPath: settings.webhookPath,
      githubApi: settings.baseUrl ?? "https://api.github.com",
    },
    `GitHub App enabled: webhooks on POST ${settings.webhookPath}`,
  );
  server.decorate("githubApp", { queue, backfill, webhookPath: settings.webhookPath });

  server.addHook("onReady", async () => {
    await intake?.start();
    backfill?.start();
  });
  server.addHook("onClose", async () => {
    const { shutdown } = server;
    // The repository in hand is handed back at the next issue; any instance resumes it from its cursor.
    await backfill?.stop();
    await intake?.close(shutdown.remainingMs());
    if (queue.size > 0) {
      logger.info({ jobs: queue.size }, "draining the webhook queue");
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, shutdown.remainingMs())));
      await Promise.race([queue.drain(), deadline]);
      clearTimeout(timer);
      if (queue.size > 0)
        logger.warn({ jobs: queue.size }, "shutdown deadline reached with webhook jobs unfinished");
    }
  });
});
