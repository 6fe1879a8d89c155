// Similar issues (issue 32): building one repository's index of 10,000 issues (time, memory) and one
// similar-issues query at 10,000 (its p99), in memory (src/core/similar/) and through the store
// (src/backlog/similar-store.ts: the table read on first use, then followed), on the embedded PGlite and on
// PostgreSQL when DATABASE_URL is set (a database of its own, dropped after). The index is in memory with either
// engine; only the first read of the table differs.
//
// The issues' text is real: titles and descriptions of the public benchmark beside the clone
// (../shared/benchmarks/duplicates/, read at run time, never copied), each issue the title of one report and the
// description of another, so that no two issues are the same; invented text when the benchmark is absent.
import { existsSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { SimilarStore } from "../src/backlog/similar-store.js";
import { SimilarIndex } from "../src/core/similar/similar-index.js";
import { openDatabase } from "../src/storage/database.js";
import { parseCsv } from "../scripts/eval/nlbse.js";
import { freshDatabase } from "../test/helpers/postgres.js";

export interface SimilarBenchOptions {
  smoke: boolean;
}

const BENCHMARK = new URL("../../shared/benchmarks/duplicates/hadoop-issues.csv", import.meta.url);

/** Titles and descriptions: the benchmark's when it is there, else invented (words of a made-up vocabulary). */
function texts(): { titles: string[]; bodies: string[]; source: string } {
  if (existsSync(BENCHMARK)) {
    const [head, ...rows] = parseCsv(readFileSync(BENCHMARK, "utf8"));
    const [t, d] = [head!.indexOf("Summary"), head!.indexOf("Description")];
    const ok = rows.filter((r) => r[t]);
    return { titles: ok.map((r) => r[t]!), bodies: ok.map((r) => r[d] ?? ""), source: "benchmark" };
  }
  let seed = 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const vocab = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);
  const word = () => vocab[Math.floor(vocab.length * rand() ** 3)]!;
  const line = (n: number) => Array.from({ length: n }, word).join(" ");
  const titles = Array.from({ length: 2_500 }, () => line(7));
  const bodies = Array.from({ length: 2_500 }, () => line(40 + Math.floor(rand() * 300)));
  return { titles, bodies, source: "invented" };
}

function gc(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

export async function runSimilarBench({
  smoke,
}: SimilarBenchOptions): Promise<Record<string, number | string>> {
  const n = smoke ? 1_000 : 10_000;
  const queries = smoke ? 30 : 300;
  const { titles, bodies, source } = texts();
  // Issue k: the title of one report, the description of another (a stride prime to the count: all distinct).
  const issue = (k: number) => ({
    title: titles[k % titles.length]!,
    body: bodies[(k * 7 + 3 + Math.floor(k / titles.length)) % bodies.length]!,
  });
  const out: Record<string, number | string> = { "similar.text": source };

  // In memory: the index alone, as the Action would use it and as the store holds it. Its memory: the heap
  // with it less the heap once it is dropped (both after a full collection).
  let started = performance.now();
  let index: SimilarIndex | undefined = new SimilarIndex();
  for (let k = 1; k <= n; k++) {
    const { title, body } = issue(k);
    index.set(k, index.features(title, body));
  }
  // The first query computes the norms: part of building.
  index.query(index.features("warm", "up"), 1);
  out[`similar.build_${n}.ms`] = Math.round(performance.now() - started);
  const withIndex = heapMb();
  // Wall time, and the process's CPU time (what the query costs whatever else the machine runs).
  const times: number[] = [];
  const cpu: number[] = [];
  for (let q = 0; q < queries; q++) {
    const { title, body } = issue(n + 1 + q * 13);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    index.query(index.features(title, body), 5, undefined, Number.MAX_SAFE_INTEGER);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  out[`similar.query_${n}.p50_ms`] = round(percentile(times, 50), 2);
  out[`similar.query_${n}.p99_ms`] = round(percentile(times, 99), 2);
  out[`similar.query_${n}.cpu_p99_ms`] = round(percentile(cpu, 99), 2);
  index = undefined;
  out[`similar.build_${n}.heap_mb`] = round(withIndex - heapMb());

  // Through the store, on each engine: the rows written as the App writes them, then the first query (the
  // table read whole and indexed) and the queries after it (in memory, the table asked every 2 s).
  const engines: ["pglite" | "postgres", () => Promise<{ url?: string; drop?: () => Promise<void> }>][] = [
    ["pglite", () => Promise.resolve({})],
  ];
  if (process.env.DATABASE_URL) engines.push(["postgres", () => freshDatabase()]);
  for (const [engine, where] of engines) {
    const place = await where();
    const database = await openDatabase(place.url ? { url: place.url } : { dataDir: "memory://" });
    try {
      const rows = Array.from({ length: n }, (_, i) => ({
        number: i + 1,
        ...issue(i + 1),
        url: `https://github.com/acme/widgets/issues/${i + 1}`,
        state: "open" as const,
      }));
      await new SimilarStore(database.db).index("acme/widgets", rows);
      const store = new SimilarStore(database.db);
      started = performance.now();
      await store.similarTo("acme/widgets", 1, 5);
      out[`similar.${engine}.load_${n}.ms`] = Math.round(performance.now() - started);
      const storeTimes: number[] = [];
      for (let q = 0; q < queries; q++) {
        const t0 = performance.now();
        await store.similarTo("acme/widgets", { ...issue(n + 1 + q * 13) }, 5, { earlierOnly: true });
        storeTimes.push(performance.now() - t0);
      }
      storeTimes.sort((a, b) => a - b);
      out[`similar.${engine}.query_${n}.p99_ms`] = round(percentile(storeTimes, 99), 2);
      if (engine === "pglite") {
        // The board's "duplicates" filter: every task's duplicateOf, worked out once (memoised after).
        started = performance.now();
        await store.duplicatesOf(
          "acme/widgets",
          rows.map((r) => r.number),
        );
        out[`similar.duplicate_of_all_${n}.first_ms`] = Math.round(performance.now() - started);
        started = performance.now();
        await store.duplicatesOf(
          "acme/widgets",
          rows.map((r) => r.number),
        );
        out[`similar.duplicate_of_all_${n}.again_ms`] = Math.round(performance.now() - started);
      }
    } finally {
      await database.close();
      await place.drop?.();
    }
  }
  return out;
}
