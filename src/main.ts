import { startWebhookRelay } from "./app/webhook-relay.js";
import { composeService } from "./compose-service.js";
import { createLogger } from "./config/create-logger.js";
import { envFilePath, loadEnvFile } from "./config/load-env-file.js";
import { packageVersion } from "./config/package-info.js";
import { loadServiceConfig, type ServiceConfig } from "./config/service-config.js";
import { isTaskScorerError } from "./core/errors.js";

// Entry point: only wiring. Reads the environment (and .env), serves, and shuts down cleanly.
let envError: unknown;
let envLoaded = false;
let config: ServiceConfig | undefined;
try {
  envLoaded = loadEnvFile();
  // `npm start` is the command for one's own machine: it listens on loopback unless HOST says otherwise
  // (the container and `npm run start:prod` listen on every interface). Registering the App from the
  // start page is offered only on loopback.
  if (process.env.HOST === undefined && process.env.npm_lifecycle_event === "start")
    process.env.HOST = "127.0.0.1";
  // The environment is read here, once; every part of the service receives its own section.
  config = loadServiceConfig(process.env);
} catch (err) {
  envError = err;
}
const logger = createLogger(config?.server.logLevel ?? "info");

async function main(): Promise<void> {
  if (envError || !config) throw envError;
  if (envLoaded)
    logger.info({ envFile: envFilePath() }, "loaded .env (variables already set take precedence)");
  const service = await composeService(config, { logger, version: packageVersion() });
  const { server } = service;
  const { port: configuredPort, host: configuredHost } = config.server;
  const proxyUrl = config.app.webhookProxyUrl;
  await server.listen({ port: configuredPort, host: configuredHost });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : configuredPort;
  const anyAddress = configuredHost === "0.0.0.0" || configuredHost === "::";
  const host = anyAddress ? "localhost" : configuredHost;
  logger.info(
    `task-scorer listening on http://${host}:${port} (try it: GET /, POST /score-task, GET /docs, GET /healthz, GET /metrics)`,
  );
  const relay =
    proxyUrl && service.webhookPath
      ? await startWebhookRelay(
          proxyUrl,
          `http://${anyAddress ? "127.0.0.1" : configuredHost}:${port}${service.webhookPath}`,
          logger,
        )
      : undefined;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    Promise.resolve(relay?.stop())
      .then(() => service.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, "error during shutdown");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  if (isTaskScorerError(err)) logger.fatal(err.message);
  else logger.fatal({ err }, "failed to start");
  process.exit(1);
});
