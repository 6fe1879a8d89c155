import type { FastifyInstance } from "fastify";
import { DatabaseOutputProblems } from "./app/output-problems.js";
import type { Logger } from "pino";
import { ProbotOctokit } from "probot";
import { deliveryGiveUp, deliveryHandler } from "./app/delivery-handler.js";
import { taskScorerApp } from "./app/task-scorer-app.js";
import { JobQueue } from "./app/job-queue.js";
import { appNotConfiguredPlugin, createProbot, probotHost } from "./app/github-app-plugin.js";
import { registrationPlugin, registrationTarget } from "./app/manifest-registration.js";
import { checkAppIdentity } from "./app/startup-check.js";
import { envFilePath } from "./config/load-env-file.js";
import { createMetrics, type ServiceMetrics } from "./http/metrics.js";
import { createScorer, type CreatedScorer } from "./llm/create-scorer.js";
import { isLoopbackHost, needsDatabase, type ServiceConfig } from "./config/service-config.js";
import { buildServer } from "./http/build-server.js";
import { AccountStore } from "./accounts/account-store.js";
import { BatchedAccountStore } from "./accounts/batched-account-store.js";
import { KeyAccess, type KeyRow } from "./accounts/key-access.js";
import { KEY_NOTICES, KeyCache } from "./accounts/key-cache.js";
import { LedgerBatcher } from "./accounts/ledger-batcher.js";
import {
  DatabaseRateLimiter,
  MemoryRateLimiter,
  RedisRateLimiter,
  type RateLimiter,
} from "./accounts/plan-rate-limit.js";
import type { Listener } from "./storage/notifications.js";
import { openDatabase, type Database } from "./storage/database.js";
import { AppMetering } from "./accounts/app-metering.js";
import { serveAdminChannel, type AdminChannel } from "./admin/admin-channel.js";
import { executeAdmin } from "./admin/admin-commands.js";
import { DatabaseDeliveries, RedisDeliveries, type DeliveryIntake } from "./fleet/delivery-queues.js";
import { DeliveryStore } from "./fleet/delivery-store.js";
import { sharedScoreCache } from "./fleet/shared-score-cache.js";
import { BackfillRunner } from "./backlog/backfill-runner.js";
import { BacklogStore } from "./backlog/backlog-store.js";
import { appBackfillDeps } from "./app/backlog-app.js";
import { learnFromClosedIssues, RELEARN_MS } from "./app/learning-app.js";
import { CalibrationStore } from "./learning/calibration-store.js";
import { SessionCookies } from "./http/session-cookie.js";
import { UserRepoAccess } from "./github/user-repo-access.js";

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
 * Everything `npm start` runs, wired from the configuration (read once, by `loadServiceConfig`): the REST
 * API, and the GitHub App when configured. Each part receives only its own section.
 */
export async function composeService(config: ServiceConfig, options: ComposeOptions): Promise<Service> {
  const { logger } = options;
  const { server: serverConfig, app: appConfig, storage, fleet, keys } = config;
  const policy = config.approval;
  const created = options.scorer ?? createScorer(config.llm, { logger });
  const metrics = options.metrics ?? createMetrics({ processMetrics: true });
  // Timed once here, so REST and App scoring both show in the latency histogram.
  // Wrapped below when a fleet shares its model's verdicts.
  let scorer = metrics.instrumentScorer(created.scorer);
  const { description } = created;
  metrics.setSources({ scorer: created.scorer });
  logger.info({ scorer: description, policy }, "approval policy");

  let database: Database | undefined;
  let access: KeyAccess | undefined;
  let keyNotices: Listener | undefined;
  let limiter: RateLimiter | undefined;
  let ledger: LedgerBatcher | undefined;
  let adminChannel: AdminChannel | undefined;
  if (needsDatabase(config)) {
    database = await openDatabase({
      url: storage.databaseUrl,
      dataDir: storage.dataDir,
      preparedStatements: storage.preparedStatements,
    });
    logger.info(
      { engine: database.engine, auth: keys.auth },
      database.engine === "postgres"
        ? "storage: PostgreSQL (DATABASE_URL)"
        : `storage: embedded PGlite in ${storage.dataDir} (one process; not safe against power loss)`,
    );
    if (keys.auth === "keys") {
      // Verified keys are kept in memory; a revocation or a plan change made anywhere (another instance,
      // the admin CLI, a Marketplace event) reaches this instance as a notice and drops them.
      const cache = new KeyCache<KeyRow>();
      keyNotices = await database.listen(KEY_NOTICES, cache.handlers);
      // Requests per minute by plan, counted where every instance sees them: Redis when the fleet has it,
      // else PostgreSQL; the embedded database serves one process, so memory is enough.
      limiter = fleet.redisUrl
        ? new RedisRateLimiter(new (await import("ioredis")).Redis(fleet.redisUrl), fleet.redisPrefix)
        : database.engine === "postgres"
          ? new DatabaseRateLimiter(database.db)
          : new MemoryRateLimiter();
      ledger = new LedgerBatcher(database.db);
      // Key lookups and allowance holds that arrive together share one statement (see batched-account-store.ts).
      access = new KeyAccess(new BatchedAccountStore(database.db), options.clock, keys.maxConcurrentPerKey, {
        cache,
        limiter,
        ledger,
      });
    }
    // The admin CLI cannot open the embedded database while this process holds it: it asks us (admin-channel.ts).
    if (database.engine === "pglite")
      adminChannel = await serveAdminChannel({
        db: database.db,
        dataDir: storage.dataDir,
        execute: executeAdmin,
        log: logger,
        clock: options.clock,
      });
    // A model's verdicts are shared by the fleet (cache and single-flight in PostgreSQL). The offline
    // judge is deterministic and takes microseconds: a repeat on another instance is simply scored again.
    if (database.engine === "postgres" && scorer.name !== "offline") {
      const ttl = config.llm.cacheTtlSeconds ?? 3600;
      scorer = sharedScoreCache(scorer, database.db, { ttlMs: ttl * 1000 });
    }
  }

  // The backlog (every open issue's latest report) lives wherever the service stores things.
  const backlogStore = database ? new BacklogStore(database.db) : undefined;
  const calibrations = database ? new CalibrationStore(database.db) : undefined;
  // What the App's outputs met, for maintainers: shared by every instance where there is a database.
  const outputProblems = database ? new DatabaseOutputProblems(database.db) : undefined;
  let backfill: BackfillRunner | undefined;

  const appSettings = appConfig.credentials;
  // Said at start, and by the board and the tasks API (503 storage_required): the backlog needs storage.
  if (!backlogStore)
    logger[appSettings ? "warn" : "info"](
      "the backlog (backfill on install, /score backlog, the board at /board/OWNER/REPO) needs storage: set DATA_DIR or DATABASE_URL",
    );
  let intake: DeliveryIntake | undefined;
  let queue: JobQueue | undefined;
  const plugins: ((app: FastifyInstance) => Promise<void>)[] = [];
  if (appSettings) {
    queue = new JobQueue({
      concurrency: appSettings.queueConcurrency,
      maxPending: appSettings.queueMaxPending,
      maxPendingPerInstallation: appSettings.queueMaxPendingPerInstallation,
      jobTimeoutMs: appSettings.jobTimeoutMs,
      logger,
    });
    const probot = createProbot(
      appSettings,
      logger,
      options.Octokit ??
        (!appConfig.githubThrottle
          ? ProbotOctokit.defaults((o: { throttle?: object }) => ({
              ...o,
              throttle: { ...o.throttle, enabled: false },
            }))
          : undefined),
    );
    if (database) {
      const handle = deliveryHandler(probot, queue);
      const deliveries = new DeliveryStore(database.db);
      intake = fleet.redisUrl
        ? new RedisDeliveries(deliveries, handle, logger, {
            redisUrl: fleet.redisUrl,
            prefix: fleet.redisPrefix,
            concurrency: appSettings.queueConcurrency,
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
    if (backlogStore) {
      backfill = new BackfillRunner({
        store: backlogStore,
        ...appBackfillDeps({
          probot,
          store: backlogStore,
          scorer,
          policy,
          clock: options.clock,
          calibrations,
          ...(calibrations ? { learnedLabelNames: (r: string) => calibrations.labelNames(r) } : {}),
          outputProblems,
        }),
        // Learning from each repository's own closed issues (issue 18): on install, /score learn, weekly.
        ...(calibrations
          ? { learn: learnFromClosedIssues(calibrations, logger), relearnMs: RELEARN_MS }
          : {}),
        usesModel: created.scorer.name !== "offline",
        logger,
        ...(options.clock ? { clock: options.clock } : {}),
      });
    }
    const boardBase = serverConfig.publicUrl?.replace(/\/+$/, "") ?? "";
    const host = await probotHost(
      probot,
      taskScorerApp({
        scorer,
        scorerDescription: description,
        policy,
        queue,
        ...(calibrations ? { learnedLabelNames: (r: string) => calibrations.labelNames(r) } : {}),
        outputProblems,
        // Plans are part of the keyed service: with AUTH=keys the App meters each GitHub account too.
        ...(database && keys.auth === "keys"
          ? { metering: new AppMetering(new AccountStore(database.db), options.clock) }
          : {}),
        ...(backlogStore && backfill
          ? {
              backlog: {
                store: backlogStore,
                runner: backfill,
                boardUrl: (repository: string) => `${boardBase}/board/${repository}`,
                calibrations,
              },
            }
          : {}),
      }),
      appSettings.webhookPath,
      appSettings.webhookSecret,
      intake,
    );
    plugins.push(host.plugin);
    metrics.setSources({ queue });
    if (appConfig.startupCheck) await checkAppIdentity(probot, logger);
    logger.info(
      {
        appId: appSettings.appId,
        webhookPath: appSettings.webhookPath,
        githubApi: appSettings.baseUrl ?? "https://api.github.com",
      },
      `GitHub App enabled: webhooks on POST ${appSettings.webhookPath}`,
    );
  }
  // Without credentials, the start page offers to register the App (GitHub's manifest flow). Only where
  // a stranger cannot reach it: on a public server anyone could otherwise register an App of their own,
  // have its credentials (and webhook secret) written here, and then sign events as GitHub.
  const offerRegistration =
    !appSettings &&
    (appConfig.registration === "on" ||
      (appConfig.registration === "auto" && isLoopbackHost(serverConfig.host) && !appConfig.production));
  if (!appSettings) {
    logger.info(
      `GitHub App disabled: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET are not set; serving the REST API only${offerRegistration ? " (register the App from the start page)" : ""}`,
    );
    plugins.push(appNotConfiguredPlugin(appConfig.webhookPath, { registration: offerRegistration }));
  }
  const { ghe } = appConfig;
  if (offerRegistration) {
    plugins.push(
      await registrationPlugin({
        envFile: options.envFile ?? envFilePath(),
        ghe,
        webhookPath: appConfig.webhookPath,
        webhookProxyUrl: appConfig.webhookProxyUrl,
        publicUrl: serverConfig.publicUrl,
        logger,
      }),
    );
  }

  // "Sign in with GitHub": a private repository's backlog is shown to a signed-in user GitHub lets read it.
  const githubWeb = ghe ? `${ghe.protocol}://${ghe.host}` : "https://github.com";
  const githubApi = ghe ? `${githubWeb}/api/v3` : "https://api.github.com";
  const { signIn } = config.auth;
  const sessions = signIn ? new SessionCookies(signIn.sessionSecret) : undefined;
  if (!signIn)
    logger.info(
      "sign-in with GitHub is off (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SESSION_SECRET): private repositories' boards are not shown",
    );

  const server = await buildServer({
    ...(access ? { access } : {}),
    scorer,
    policy,
    loggerInstance: logger,
    version: options.version ?? "0.0.0",
    requestTimeoutMs: serverConfig.requestTimeoutMs,
    plugins,
    backlog: {
      store: backlogStore,
      access: sessions ? new UserRepoAccess({ sessions, apiUrl: githubApi }) : undefined,
    },
    signIn: {
      settings: signIn,
      sessions,
      github: { webUrl: githubWeb, apiUrl: githubApi },
      publicUrl: serverConfig.publicUrl,
    },
    trustProxy: serverConfig.trustProxy,
    corsOrigins: serverConfig.corsOrigins,
    metrics,
    appEnabled: appSettings !== undefined,
    webPage: {
      scorer: description,
      registration: offerRegistration ? { target: registrationTarget(ghe) } : undefined,
      githubWebUrl: ghe ? `${ghe.protocol}://${ghe.host}` : "https://github.com",
    },
    ...(serverConfig.rateLimitPerMinute ? { rateLimitPerMinute: serverConfig.rateLimitPerMinute } : {}),
  });

  await intake?.start();
  backfill?.start();

  return {
    server,
    config,
    queue,
    backfill,
    backlogStore,
    webhookPath: appSettings?.webhookPath,
    close: async (graceMs = 25_000) => {
      // One deadline for the whole shutdown, shared by the delivery intake and the job queue.
      const end = Date.now() + graceMs;
      await server.close();
      // The repository in hand is handed back at the next issue; any instance resumes it from its cursor.
      await backfill?.stop();
      await intake?.close(Math.max(0, end - Date.now()));
      if (queue && queue.size > 0) {
        logger.info({ jobs: queue.size }, "draining the webhook queue");
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>(
          (resolve) => (timer = setTimeout(resolve, Math.max(0, end - Date.now()))),
        );
        await Promise.race([queue.drain(), deadline]);
        clearTimeout(timer);
        if (queue.size > 0)
          logger.warn({ jobs: queue.size }, "shutdown deadline reached with webhook jobs unfinished");
      }
      await ledger?.drain();
      await limiter?.close?.();
      await keyNotices?.close();
      await adminChannel?.close();
      await database?.close();
    },
  };
}
