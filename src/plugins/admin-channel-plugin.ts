import type { Logger } from "pino";
import { serveAdminChannel } from "../admin/admin-channel.js";
import { executeAdmin } from "../admin/admin-commands.js";
import { servicePlugin } from "./service-plugin.js";

export interface AdminChannelPluginOptions {
  dataDir: string;
  logger: Logger;
  clock?: (() => Date) | undefined;
}

/**
 * The admin CLI cannot open the embedded database while this process holds it: it asks us, on a Unix socket in
 * the data folder (admin/admin-channel.ts). Only on PGlite; with PostgreSQL the CLI opens the database itself.
 */
export const adminChannelPlugin = servicePlugin(
  "admin-channel",
  async (server, options: AdminChannelPluginOptions) => {
    const { database } = server;
    if (database?.engine !== "pglite") return;
    const channel = await serveAdminChannel({
      db: database.db,
      dataDir: options.dataDir,
      execute: executeAdmin,
      log: options.logger,
      clock: options.clock,
    });
    if (channel) server.addHook("onClose", async () => channel.close());
  },
);
