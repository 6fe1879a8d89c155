import { startWebhookRelay } from "./app/webhook-relay.js";
import { composeService } from "./compose-service.js";
import { createLogger } from "./config/create-logger.js";
import { envFilePath, loadEnvFile } from "./config/load-env-file.js";
import { packageVersion } from "./config/package-info.js";
import { isTaskScorerError } from "./core/errors.js";

// Entry point: only wiring. Reads the environment (and .env), serves, and shuts down cleanly.
let envError: unknown;
let envLoaded = false;
try {
  envLoaded = loadEnvFile();
} catch (err) {
  envError = err;
}
const logger = createLogger(process.env.LOG_LEVEL ?? "info");

// `npm start` is the command for one's own machine: it listens on loopback unless HOST says otherwise
// (the container and `npm run start:prod` listen on every interface). Registering the App from the
// start page is offered only on loopback.
if (process.env.HOST === undefined && process.env.npm_lifecycle_event === "start")
  process.env.HOST = "127.0.0.1";

async function main(): Promise<void> {
  if (envError) throw envError;
  if (envLoaded)
    logger.info({ envFile: envFilePath() }, "loaded .env (variables already set take precedence)");
  const service = await composeService(process.env, { logger, version: packageVersion() });
  const { env, server } = service;
  await server.listen({ port: env.PORT, host: env.HOST });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  logger.info(
    `task-scorer listening on http://${host}:${port} (try it: GET /, POST /score-task, GET /docs, GET /healthz, GET /metrics)`,
  );
  const relay =
    env.WEBHOOK_PROXY_URL && service.webhookPath
      ? await startWebhookRelay(
          env.WEBHOOK_PROXY_URL,
          `http://${env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST}:${port}${service.webhookPath}`,
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
