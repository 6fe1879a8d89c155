import { readFileSync } from "node:fs";
import { composeService } from "./compose-service.js";
import { createLogger } from "./config/create-logger.js";
import { isTaskScorerError } from "./core/errors.js";

// Entry point: only wiring. Reads the environment, serves, and shuts down cleanly.
const logger = createLogger(process.env.LOG_LEVEL ?? "info");

/** package.json sits one level up from src/ and two from build/src/. */
function readVersion(): string {
  for (const rel of ["../package.json", "../../package.json"]) {
    try {
      return (JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { version: string }).version;
    } catch {
      // try the next location
    }
  }
  return "0.0.0";
}

async function main(): Promise<void> {
  const service = await composeService(process.env, { logger, version: readVersion() });
  const { env, server } = service;
  await server.listen({ port: env.PORT, host: env.HOST });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  logger.info(
    `task-scorer listening on http://${host}:${port} (POST /score-task, GET /openapi.json, GET /healthz)`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    service
      .close()
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
