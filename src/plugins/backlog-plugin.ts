import type { Logger } from "pino";
import { DatabaseOutputProblems } from "../app/output-problems.js";
import { BacklogStore } from "../backlog/backlog-store.js";
import { backlogRoutes } from "../http/build-server.js";
import { CalibrationStore } from "../learning/calibration-store.js";
import { servicePlugin } from "./service-plugin.js";

export interface BacklogPluginOptions {
  /** Whether the App runs: without storage, that is worth a warning. */
  appEnabled: boolean;
  logger: Logger;
  /** Board and tasks-API requests per minute per client (BACKLOG_REQUESTS_PER_MINUTE); the routes' default if unset. */
  requestsPerMinute?: number | undefined;
}

/**
 * The backlog (every open issue's latest report), the calibrations learned from each repository, and what the
 * App's outputs met, wherever the service stores things; the tasks API and the board over them.
 */
export const backlogPlugin = servicePlugin("backlog", async (server, options: BacklogPluginOptions) => {
  const { database, signIn } = server;
  const store = database ? new BacklogStore(database.db) : undefined;
  server.decorate("backlog", {
    store,
    calibrations: database ? new CalibrationStore(database.db) : undefined,
    // What the App's outputs met, for maintainers: shared by every instance where there is a database.
    outputProblems: database ? new DatabaseOutputProblems(database.db) : undefined,
  });
  // Said at start, and by the board and the tasks API (503 storage_required): the backlog needs storage.
  if (!store)
    options.logger[options.appEnabled ? "warn" : "info"](
      "the backlog (backfill on install, /score backlog, the board at /board/OWNER/REPO) needs storage: set DATA_DIR or DATABASE_URL",
    );
  await backlogRoutes(server, {
    backlog: { store, access: signIn.userRepoAccess, rateLimit: { json: options.requestsPerMinute } },
    githubWebUrl: signIn.github.webUrl,
    signIn: signIn.sessions !== undefined,
  });
});
