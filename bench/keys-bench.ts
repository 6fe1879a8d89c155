// Keys and plans on a real database: REST throughput with AUTH=keys (every request authenticated, limited by
// its plan's requests per minute, metered, counted in the ledger and its report stored) against the open mode,
// in one run; which of the two savings mattered (keys from memory, group commit of the ledger); the cost of the
// key check and the charge alone; and how fast a revocation reaches a second instance. PostgreSQL when
// DATABASE_URL is set (each run in a database of its own, dropped after), else the embedded PGlite.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { AccountStore } from "../src/accounts/account-store.js";
import { KeyAccess, type KeyAccessParts, type KeyRow } from "../src/accounts/key-access.js";
import { KEY_NOTICES, KeyCache } from "../src/accounts/key-cache.js";
import { LedgerBatcher } from "../src/accounts/ledger-batcher.js";
import { DatabaseRateLimiter, MemoryRateLimiter } from "../src/accounts/plan-rate-limit.js";
import { periodOf, PLANS, type PlanId } from "../src/core/plans.js";
import { openDatabase, type Database } from "../src/storage/database.js";
import type { Listener } from "../src/storage/notifications.js";
import { freshDatabase } from "../test/helpers/postgres.js";
import { startServer } from "./rest-bench.js";

async function rps(port: number, seconds: number, connections: number, keys: string[] = []) {
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: "/score-task",
        // Every task new, so each keyed request writes its own ledger row and report; the keys take turns
        // (many accounts, as a service has), so no account meets its per-minute limit.
        setupRequest: (req: Record<string, unknown>) => {
          n++;
          const key = keys.length > 0 ? keys[n % keys.length] : undefined;
          return {
            ...req,
            headers: {
              "content-type": "application/json",
              ...(key ? { authorization: `Bearer ${key}` } : {}),
            },
            body: JSON.stringify({
              task: `Add CSV export to report ${n}`,
              description: "Users copy tables by hand.",
            }),
          };
        },
      },
    ],
  });
  return { rps: r.requests.average, bad: r.non2xx + r.errors + r.timeouts, p99: r.latency.p99 };
}

async function keysOn(store: AccountStore, plan: PlanId, accounts: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const account = await store.createAccount(`bench-${plan}-${i}`, plan);
    keys.push((await store.createKey(account.id, ["score", "usage:read"])).key);
  }
  return keys;
}

/** The parts npm start gives KeyAccess, or some of them (to see which one matters). */
async function parts(database: Database, which: { cache: boolean; ledger: boolean }) {
  const p: KeyAccessParts = {
    limiter: database.engine === "postgres" ? new DatabaseRateLimiter(database.db) : new MemoryRateLimiter(),
  };
  let listener: Listener | undefined;
  if (which.cache) {
    const cache = new KeyCache<KeyRow>();
    listener = await database.listen(KEY_NOTICES, cache.handlers);
    p.cache = cache;
  }
  if (which.ledger) p.ledger = new LedgerBatcher(database.db);
  return { parts: p, close: () => listener?.close() };
}

/** Milliseconds from a revocation committing to a second instance refusing the key (median and worst of n). */
async function revocationLatency(database: Database, store: AccountStore, n: number) {
  const other = await parts(database, { cache: true, ledger: false });
  const access = new KeyAccess(store, undefined, undefined, other.parts);
  const account = await store.createAccount("bench-revoke", "pro");
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const { key, record } = await store.createKey(account.id, ["score"]);
      await access.authenticate(`Bearer ${key}`, "score"); // now kept in that instance's memory
      await store.revokeKey(record.id);
      const t0 = performance.now();
      for (;;) {
        try {
          await access.authenticate(`Bearer ${key}`, "score");
        } catch {
          break;
        }
        if (performance.now() - t0 > 5000) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      times.push(performance.now() - t0);
    }
  } finally {
    await other.close();
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
}

async function stop(child: import("node:child_process").ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

export async function runKeysBench(options: {
  seconds: number;
  connections: number;
  charges: number;
  /** Rounds of open, Pro and Free in turn; the ratios are the medians of each round's own. */
  rounds?: number;
}) {
  const fresh = process.env.DATABASE_URL ? await freshDatabase() : undefined;
  const dir = fresh ? undefined : mkdtempSync(join(tmpdir(), "ts-keys-bench-"));
  const where = fresh ? { url: fresh.url } : { dataDir: join(dir!, "data") };
  const childEnv: Record<string, string> = fresh
    ? { BENCH_DATABASE_URL: fresh.url }
    : { BENCH_DATA_DIR: join(dir!, "data") };
  let database = await openDatabase(where);
  const engine = database.engine;
  const accounts = Math.max(20, Math.round(options.connections * 20));
  try {
    let store = new AccountStore(database.db);
    const rounds = options.rounds ?? 1;
    const proKeys = await keysOn(store, "pro", accounts);
    // Free keys new in every round: each has 10 tasks a month, and every round starts from new accounts.
    const freeKeySets: string[][] = [];
    for (let i = 0; i < rounds; i++) freeKeySets.push(await keysOn(store, "free", accounts * 4));
    // The servers run in processes of their own, as npm start does; the embedded database's folder
    // is held by one process at a time, so this one lets go while they run.
    await database.close();
    const { seconds, connections } = options;
    const measure = async (mode: "fastify" | "keyed", variant: string, keys: string[], secs = seconds) => {
      const server = await startServer(mode, mode === "keyed" ? [variant] : [], childEnv);
      try {
        await rps(server.port, 1, connections, keys); // warm-up
        return await rps(server.port, secs, connections, keys);
      } finally {
        await stop(server.child);
      }
    };
    // Open, Pro and Free take turns, round after round, and each ratio is of the same round: a slower stretch
    // of a shared machine then falls on both sides of a ratio (single runs moved by ±0.05 here).
    const open: Awaited<ReturnType<typeof measure>>[] = [];
    const pro: typeof open = [];
    const free: typeof open = [];
    for (let i = 0; i < rounds; i++) {
      open.push(await measure("fastify", "", []));
      pro.push(await measure("keyed", "cache,ledger", proKeys));
      free.push(
        await measure("keyed", "cache,ledger", freeKeySets[i]!, Math.max(1, Math.round(seconds / 2))),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const medianRun = (side: typeof open) =>
      side[side.map((r) => r.rps).indexOf(median(side.map((r) => r.rps)))]!;
    const o = medianRun(open);
    const k = medianRun(pro);
    const roundRatio = (side: typeof open) => median(side.map((r, i) => r.rps / open[i]!.rps));
    const c = await measure("keyed", "cache", proKeys);
    const l = await measure("keyed", "ledger", proKeys);
    const z = await measure("keyed", "none", proKeys);

    database = await openDatabase(where);
    store = new AccountStore(database.db);
    // The key check and the charge alone, one after another (no HTTP, no scoring), as before the savings.
    const report = { task: "x" };
    const plain = new KeyAccess(store);
    const t0 = performance.now();
    for (let i = 0; i < options.charges; i++) {
      const p = await plain.authenticate(`Bearer ${proKeys[0]}`, "score");
      await store.charge({
        account: p.account,
        plan: PLANS.pro,
        period: periodOf(new Date()),
        idempotencyKey: `bench-${i}`,
        requestHash: "h",
        source: "api",
        report,
      });
    }
    const perCharge = (performance.now() - t0) / options.charges;
    const revoke = await revocationLatency(database, store, options.charges >= 100 ? 20 : 3);
    const ratio = (x: number) => Math.round((x / o.rps) * 100) / 100;
    return {
      "keys.engine": engine,
      "keys.open.rps": Math.round(o.rps),
      "keys.pro.rps": Math.round(k.rps),
      "keys.pro_over_open": Math.round(roundRatio(pro) * 100) / 100,
      "keys.free_over_open": Math.round(roundRatio(free) * 100) / 100,
      "keys.rounds": rounds,
      "keys.pro.p99_ms": k.p99,
      "keys.pro_cache_only_over_open": ratio(c.rps),
      "keys.pro_group_commit_only_over_open": ratio(l.rps),
      "keys.pro_neither_over_open": ratio(z.rps),
      "keys.non2xx_or_errors": [...open, ...pro, ...free, c, l, z].reduce((n, r) => n + r.bad, 0),
      "keys.check_and_charge_ms": Math.round(perCharge * 100) / 100,
      "keys.revocation_ms_median": Math.round(revoke.median * 10) / 10,
      "keys.revocation_ms_max": Math.round(revoke.max * 10) / 10,
    };
  } finally {
    await database.close().catch(() => undefined);
    await fresh?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
