import { readFileSync } from "node:fs";
import pino from "pino";
import { isTaskScorerError } from "./core/errors.js";
import { offlineScorer } from "./core/offline/offline-scorer.js";
import { approvalPolicyFromEnv, parseServerEnv } from "./config/env.schema.js";
import { buildServer } from "./http/build-server.js";

// Entry point: reads the environment, wires the parts, serves, and shuts down cleanly.
const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  redact: ["req.headers.authorization", "*.apiKey", "*.privateKey"],
});

/** package.json sits one level up from src/ and two from build/src/. */
function readPackage(): { version: string } {
  for (const rel of ["../package.json", "../../package.json"]) {
    try {
      return JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { version: string };
    } catch {
      // try the next location
    }
  }
  return { version: "0.0.0" };
}

async function main(): Promise<void> {
  const env = parseServerEnv(process.env);
  const policy = approvalPolicyFromEnv(env);
  const pkg = readPackage();
  const scorer = offlineScorer;
  logger.info({ scorer: scorer.name, policy }, `scorer: ${scorer.name}`);

  const app = await buildServer({
    scorer,
    policy,
    loggerInstance: logger,
    version: pkg.version,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    ...(env.RATE_LIMIT_PER_MINUTE ? { rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE } : {}),
  });
  await app.listen({ port: env.PORT, host: env.HOST });
  const shown = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info(
    `task-scorer listening on http://${shown}:${port} (POST /score-task, GET /openapi.json, GET /healthz)`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    app
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
