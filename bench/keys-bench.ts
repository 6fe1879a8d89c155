// Keys and plans on a real database: REST throughput with AUTH=keys (every request authenticated,
// metered, counted in the ledger and its report stored) against the open mode, in one run, plus the
// cost of the key check and the quota transaction alone. PostgreSQL when DATABASE_URL is set (each run
// in a database of its own, dropped after), else the embedded PGlite.
import autocannon from "autocannon";
import { AccountStore } from "../src/accounts/account-store.js";
import { KeyAccess } from "../src/accounts/key-access.js";
import { DEFAULT_APPROVAL_POLICY } from "../src/core/approval.js";
import { offlineScorer } from "../src/core/offline/offline-scorer.js";
import { periodOf, PLANS } from "../src/core/plans.js";
import { buildServer } from "../src/http/build-server.js";
import { openDatabase } from "../src/storage/database.js";
import { freshDatabase } from "../test/helpers/postgres.js";

async function rps(port: number, seconds: number, connections: number, authorization?: string) {
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: "/score-task",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        // Every task new, so each keyed request writes its own ledger row and report.
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          body: JSON.stringify({
            task: `Add CSV export to report ${++n}`,
            description: "Users copy tables by hand.",
          }),
        }),
      },
    ],
  });
  return { rps: r.requests.average, bad: r.non2xx + r.errors + r.timeouts, p99: r.latency.p99 };
}

export async function runKeysBench(options: { seconds: number; connections: number; charges: number }) {
  const pgBase = process.env.DATABASE_URL;
  const fresh = pgBase ? await freshDatabase() : undefined;
  const database = await openDatabase(fresh ? { url: fresh.url } : { dataDir: "memory://" });
  const store = new AccountStore(database.db);
  const account = await store.createAccount("bench", "payg");
  const { key } = await store.createKey(account.id, ["score", "usage:read"]);
  const access = new KeyAccess(store);
  const open = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY });
  const keyed = await buildServer({ scorer: offlineScorer, policy: DEFAULT_APPROVAL_POLICY, access });
  try {
    await open.listen({ port: 0, host: "127.0.0.1" });
    await keyed.listen({ port: 0, host: "127.0.0.1" });
    const port = (s: typeof open) => (s.server.address() as { port: number }).port;
    const o = await rps(port(open), options.seconds, options.connections);
    const k = await rps(port(keyed), options.seconds, options.connections, `Bearer ${key}`);

    // The key check and the quota transaction alone, one after another (no HTTP, no scoring).
    const report = (
      await keyed.inject({
        method: "POST",
        url: "/score-task",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        payload: { task: "x" },
      })
    ).json();
    const t0 = performance.now();
    for (let i = 0; i < options.charges; i++) {
      const p = await access.authenticate(`Bearer ${key}`, "score");
      await store.charge({
        account: p.account,
        plan: PLANS.payg,
        period: periodOf(new Date()),
        idempotencyKey: `bench-${i}`,
        requestHash: "h",
        source: "api",
        report,
      });
    }
    const perCharge = (performance.now() - t0) / options.charges;
    return {
      "keys.engine": database.engine,
      "keys.open.rps": Math.round(o.rps),
      "keys.keyed.rps": Math.round(k.rps),
      "keys.keyed_over_open": Math.round((k.rps / o.rps) * 100) / 100,
      "keys.keyed.p99_ms": k.p99,
      "keys.non2xx_or_errors": o.bad + k.bad,
      "keys.check_and_charge_ms": Math.round(perCharge * 100) / 100,
    };
  } finally {
    await open.close();
    await keyed.close();
    await database.close();
    await fresh?.drop();
  }
}
