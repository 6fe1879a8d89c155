// Child-process entry for the REST benchmark: serves either our fastify app (offline scorer, JSON
// logs to /dev/null as in production) or a bare node:http server answering with a report of the
// same size. Prints "PORT <n>" when ready.
import { createServer } from "node:http";
import Fastify from "fastify";
import { DEFAULT_APPROVAL_POLICY } from "../src/core/approval.js";
import { bufferedDestination, createLogger } from "../src/config/create-logger.js";
import { createScorer } from "../src/llm/create-scorer.js";
import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { buildReport } from "../src/core/score-task.js";
import { buildServer, HOT_PATH_PARTS, type HotPathPart } from "../src/http/build-server.js";
import { AccountStore } from "../src/accounts/account-store.js";
import { BatchedAccountStore } from "../src/accounts/batched-account-store.js";
import { KeyAccess, type KeyAccessParts, type KeyRow } from "../src/accounts/key-access.js";
import { KEY_NOTICES, KeyCache } from "../src/accounts/key-cache.js";
import { LedgerBatcher } from "../src/accounts/ledger-batcher.js";
import { DatabaseRateLimiter, MemoryRateLimiter } from "../src/accounts/plan-rate-limit.js";
import { openDatabase } from "../src/storage/database.js";

const mode = process.argv[2];

if (mode === "fastify" || mode === "fastify-fixed") {
  // argv[3], the HTTP hooks benchmark's variant (bench/http-hooks-bench.ts): one part of the hot path left out
  // (a HOT_PATH_PARTS name, "logger" for no logger at all, "scoring" for fixed verdicts) or one opt-in part
  // switched on ("+cors": CORS_ORIGINS set, the request sending no Origin; "+rate-limit": RATE_LIMIT_PER_MINUTE).
  const variant = process.argv[3] ?? "";
  const leaveOut = (HOT_PATH_PARTS as readonly string[]).includes(variant)
    ? [variant as HotPathPart]
    : undefined;
  // fastify-fixed: the same server with a scorer that returns fixed verdicts: the HTTP stack's own share.
  const fixed = scoreOffline({ task: "Add Stripe checkout", description: "Let free users upgrade to Pro" });
  const app = await buildServer({
    // What `npm start` runs: the offline scorer as createScorer builds it (with its memo of recent tasks).
    scorer:
      mode === "fastify" && variant !== "scoring"
        ? createScorer({ scorer: "offline" }).scorer
        : { name: "fixed", score: async () => fixed },
    policy: DEFAULT_APPROVAL_POLICY,
    // The logger `npm start` uses (same redaction, same buffering), writing to /dev/null.
    ...(variant === "logger"
      ? { logger: false }
      : { loggerInstance: createLogger("info", bufferedDestination("/dev/null")) }),
    ...(leaveOut ? { leaveOut } : {}),
    ...(variant === "+cors" ? { corsOrigins: ["https://example.com"] } : {}),
    ...(variant === "+rate-limit" ? { rateLimitPerMinute: 1_000_000_000 } : {}),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  console.log(`PORT ${typeof addr === "object" && addr ? addr.port : 0}`);
} else if (mode === "keyed") {
  // AUTH=keys as npm start composes it, on the bench's database; argv[3] names the savings to keep
  // ("cache,ledger", "cache", "ledger" or "none"), to see which one matters.
  const which = new Set((process.argv[3] ?? "cache,ledger").split(","));
  const database = await openDatabase(
    process.env.BENCH_DATABASE_URL
      ? { url: process.env.BENCH_DATABASE_URL }
      : { dataDir: process.env.BENCH_DATA_DIR ?? "memory://" },
  );
  const parts: KeyAccessParts = {
    limiter: database.engine === "postgres" ? new DatabaseRateLimiter(database.db) : new MemoryRateLimiter(),
  };
  if (which.has("cache")) {
    const cache = new KeyCache<KeyRow>();
    await database.listen(KEY_NOTICES, cache.handlers);
    parts.cache = cache;
  }
  if (which.has("ledger")) parts.ledger = new LedgerBatcher(database.db);
  const app = await buildServer({
    scorer: createScorer({ scorer: "offline" }).scorer,
    policy: DEFAULT_APPROVAL_POLICY,
    loggerInstance: createLogger("info", bufferedDestination("/dev/null")),
    // "ledger" stands for every batched statement: the ledger's group commit, and lookups and holds together.
    access: new KeyAccess(
      which.has("ledger") ? new BatchedAccountStore(database.db) : new AccountStore(database.db),
      undefined,
      undefined,
      parts,
    ),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  console.log(`PORT ${typeof addr === "object" && addr ? addr.port : 0}`);
} else if (mode === "fastify-floor") {
  // fastify alone, answering like the bare server (a fixed report): the framework's own share of the ratio.
  const sample = { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" };
  const { report } = buildReport(sample, scoreOffline(sample), new Date());
  const app = Fastify({ logger: false });
  app.post<{ Body: { task: string; description?: string } }>("/score-task", async (request) => ({
    ...report,
    task: request.body.task,
    description: request.body.description ?? "",
  }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  console.log(`PORT ${typeof addr === "object" && addr ? addr.port : 0}`);
} else if (mode === "bare") {
  const sample = { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" };
  const { report } = buildReport(sample, scoreOffline(sample), new Date());
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        task: string;
        description?: string;
      };
      const out = JSON.stringify({ ...report, task: body.task, description: body.description ?? "" });
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(out),
      });
      res.end(out);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const addr = server.address();
    console.log(`PORT ${typeof addr === "object" && addr ? addr.port : 0}`);
  });
} else {
  console.error("usage: bench-servers.ts fastify|fastify-fixed|fastify-floor|keyed|bare");
  process.exit(2);
}

// A clean exit (not a kill) lets `--cpu-prof` write its profile when the benchmark stops us.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (process.env.BENCH_MEMORY) console.error(JSON.stringify(process.memoryUsage()));
    process.exit(0);
  });
}
