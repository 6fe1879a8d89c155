import type { Logger } from "pino";
import type { ServiceConfig } from "../config/service-config.js";
import { openDatabase } from "../storage/database.js";
import { servicePlugin } from "./service-plugin.js";

export interface StoragePluginOptions {
  storage: ServiceConfig["storage"];
  /** Whether anything needs the database (`needsDatabase`): keys, DATABASE_URL or DATA_DIR. */
  needed: boolean;
  /** AUTH, for the log line. */
  auth: ServiceConfig["keys"]["auth"];
  logger: Logger;
}

/** The database (PostgreSQL, or the embedded PGlite), when the service stores things; closed last. */
export const storagePlugin = servicePlugin("storage", async (server, options: StoragePluginOptions) => {
  const { storage, logger } = options;
  if (!options.needed) {
    server.decorate("database", undefined);
    return;
  }
  const database = await openDatabase({
    url: storage.databaseUrl,
    dataDir: storage.dataDir,
    preparedStatements: storage.preparedStatements,
  });
  server.decorate("database", database);
  server.addHook("onClose", async () => database.close());
  logger.info(
    { engine: database.engine, auth: options.auth },
    database.engine === "postgres"
      ? "storage: PostgreSQL (DATABASE_URL)"
      : `storage: embedded PGlite in ${storage.dataDir} (one process; not safe against power loss)`,
  );
});
