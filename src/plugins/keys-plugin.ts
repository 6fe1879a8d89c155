import type { ServiceConfig } from "../config/service-config.js";
import { BatchedAccountStore } from "../accounts/batched-account-store.js";
import { KeyAccess, type KeyRow } from "../accounts/key-access.js";
import { KEY_NOTICES, KeyCache } from "../accounts/key-cache.js";
import { LedgerBatcher } from "../accounts/ledger-batcher.js";
import {
  DatabaseRateLimiter,
  MemoryRateLimiter,
  RedisRateLimiter,
  type RateLimiter,
} from "../accounts/plan-rate-limit.js";
import { servicePlugin } from "./service-plugin.js";

export interface KeysPluginOptions {
  keys: ServiceConfig["keys"];
  fleet: ServiceConfig["fleet"];
  clock?: (() => Date) | undefined;
}

/**
 * API keys and plans (AUTH=keys): verified keys cached in memory, requests per minute by plan, the ledger written
 * in batches. On close: the ledger's last rows written, then the rate limiter and the key notices stopped.
 */
export const keysPlugin = servicePlugin("keys-and-plans", async (server, options: KeysPluginOptions) => {
  const { keys, fleet } = options;
  const { database } = server;
  if (!database || keys.auth !== "keys") {
    server.decorate("keyAccess", undefined);
    return;
  }
  // Verified keys are kept in memory; a revocation or a plan change made anywhere (another instance,
  // the admin CLI, a Marketplace event) reaches this instance as a notice and drops them.
  const cache = new KeyCache<KeyRow>();
  const keyNotices = await database.listen(KEY_NOTICES, cache.handlers);
  // Requests per minute by plan, counted where every instance sees them: Redis when the fleet has it,
  // else PostgreSQL; the embedded database serves one process, so memory is enough.
  const limiter: RateLimiter = fleet.redisUrl
    ? new RedisRateLimiter(new (await import("ioredis")).Redis(fleet.redisUrl), fleet.redisPrefix)
    : database.engine === "postgres"
      ? new DatabaseRateLimiter(database.db)
      : new MemoryRateLimiter();
  const ledger = new LedgerBatcher(database.db);
  // Key lookups and allowance holds that arrive together share one statement (see batched-account-store.ts).
  const access = new KeyAccess(
    new BatchedAccountStore(database.db),
    options.clock,
    keys.maxConcurrentPerKey,
    {
      cache,
      limiter,
      ledger,
    },
  );
  server.decorate("keyAccess", access);
  server.addHook("onClose", async () => {
    await ledger.drain();
    await limiter.close?.();
    await keyNotices.close();
  });
});
