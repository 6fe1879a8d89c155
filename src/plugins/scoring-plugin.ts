import type { Logger } from "pino";
import type { ServiceConfig } from "../config/service-config.js";
import type { ServiceMetrics } from "../http/metrics.js";
import type { CreatedScorer } from "../llm/create-scorer.js";
import { sharedScoreCache } from "../fleet/shared-score-cache.js";
import { servicePlugin } from "./service-plugin.js";

export interface ScoringPluginOptions {
  llm: ServiceConfig["llm"];
  approval: ServiceConfig["approval"];
  /** The scorer `createScorer` made from `llm` (or a test's). */
  created: CreatedScorer;
  metrics: ServiceMetrics;
  logger: Logger;
}

/** The one scorer the REST API and the App share: timed once, and shared by a fleet where a model scores. */
export const scoringPlugin = servicePlugin("scoring", async (server, options: ScoringPluginOptions) => {
  const { created, metrics, logger, approval: policy } = options;
  // Timed once here, so REST and App scoring both show in the latency histogram.
  let scorer = metrics.instrumentScorer(created.scorer);
  metrics.setSources({ scorer: created.scorer });
  logger.info({ scorer: created.description, policy }, "approval policy");
  // A model's verdicts are shared by the fleet (cache and single-flight in PostgreSQL). The offline
  // judge is deterministic and takes microseconds: a repeat on another instance is simply scored again.
  const { database } = server;
  if (database?.engine === "postgres" && scorer.name !== "offline") {
    const ttl = options.llm.cacheTtlSeconds ?? 3600;
    scorer = sharedScoreCache(scorer, database.db, { ttlMs: ttl * 1000 });
  }
  server.decorate("scoring", {
    scorer,
    description: created.description,
    policy,
    usesModel: created.scorer.name !== "offline",
  });
});
