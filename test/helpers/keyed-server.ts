import type { FastifyInstance } from "fastify";
import { AccountStore } from "../../src/accounts/account-store.js";
import { KeyAccess, type KeyRow } from "../../src/accounts/key-access.js";
import type { KeyCache } from "../../src/accounts/key-cache.js";
import type { RateLimiter } from "../../src/accounts/plan-rate-limit.js";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval.js";
import type { Scorer } from "../../src/core/scorer.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { buildServer } from "../../src/http/build-server.js";
import { openDatabase, type Database } from "../../src/storage/database.js";

export interface KeyedServer {
  app: FastifyInstance;
  store: AccountStore;
  database: Database;
  close(): Promise<void>;
}

/** A REST server with keys on, on a database of its own (in-memory PGlite unless a URL is given). */
export async function keyedServer(
  options: {
    url?: string;
    scorer?: Scorer;
    clock?: () => Date;
    database?: Database;
    maxConcurrentPerKey?: number;
    corsOrigins?: "*" | string[];
    limiter?: RateLimiter;
    cache?: KeyCache<KeyRow>;
  } = {},
): Promise<KeyedServer> {
  const database =
    options.database ?? (await openDatabase(options.url ? { url: options.url } : { dataDir: "memory://" }));
  const store = new AccountStore(database.db);
  const app = await buildServer({
    scorer: options.scorer ?? offlineScorer,
    policy: DEFAULT_APPROVAL_POLICY,
    access: new KeyAccess(store, options.clock, options.maxConcurrentPerKey, {
      ...(options.limiter ? { limiter: options.limiter } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
    }),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    app,
    store,
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

export const json = { "content-type": "application/json" };
export const bearer = (key: string) => ({ ...json, authorization: `Bearer ${key}` });
