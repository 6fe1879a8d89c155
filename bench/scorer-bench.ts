import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { loadCorpus } from "../test/helpers/corpus.js";
import { HOSTILE_CLOSED, HOSTILE_UNITS, hostileText } from "../test/helpers/hostile-text.js";

function timeUs(fn: () => void, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Offline scorer CPU per task over the corpus, and how it grows with text length up to the 64 KiB limit. */
export function runScorerBench(options: {
  iterations: number;
  /** Calls per task before timing, for the JIT to settle (200; the smoke run's figures are not read: 1). */
  warmup?: number;
  /** Rounds of each timing, the fastest kept (5; the smoke run: 1). */
  rounds?: number;
}): Record<string, number> {
  const corpus = loadCorpus() ?? [
    { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" },
  ];
  const tasks = corpus.map((c) => ({ task: c.task, description: c.description ?? "" }));
  const warmup = options.warmup ?? 200;
  for (const t of tasks) for (let i = 0; i < warmup; i++) scoreOffline(t); // warm-up: JIT settles
  // Rounds over the whole corpus, keeping each task's fastest round: on a shared machine a neighbour can
  // take the core for a while, and what it costs says nothing about the scorer (timeit's reasoning).
  const rounds = options.rounds ?? 5;
  const perRound = Math.max(1, Math.round(options.iterations / rounds));
  const best = tasks.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    tasks.forEach((t, i) => {
      best[i] = Math.min(
        best[i]!,
        timeUs(() => scoreOffline(t), perRound),
      );
    });
  }
  const perTask = best.sort((a, b) => a - b);

  // Realistic prose repeated to the size wanted: linear growth means time per KiB stays flat.
  const prose = tasks.map((t) => t.description).join("\n\n");
  const sized = (bytes: number) => prose.repeat(Math.ceil(bytes / prose.length)).slice(0, bytes);
  const timeText = (description: string) => {
    const input = { task: "Large description", description };
    return Math.min(...Array.from({ length: rounds }, () => timeUs(() => scoreOffline(input), 4)));
  };
  // Smaller sizes are averaged over slices taken across the 64 KiB text, so every size reads the same
  // mix of prose, code and templates and only the length differs.
  const full = sized(65_536);
  const at = (bytes: number) => {
    const slices = Math.min(16, 65_536 / bytes);
    let sum = 0;
    for (let k = 0; k < slices; k++) {
      const start = Math.floor((k * (65_536 - bytes)) / Math.max(1, slices - 1));
      sum += timeText(full.slice(start, start + bytes));
    }
    return sum / slices;
  };
  // Hostile text: one short unit repeated to the size limit, each the shape that once made a pattern
  // backtrack over the whole text ("0.0.0.0…" took 55 s at 64 KiB, "![![…" 8 s, "```…" 11 s).
  const hostileUs = (bytes: number) =>
    [...HOSTILE_UNITS.map((unit) => ({ unit, end: "" })), ...HOSTILE_CLOSED].map(({ unit, end }) => {
      const input = { task: "t".repeat(256), description: hostileText(unit, bytes, end) };
      return Math.min(
        timeUs(() => scoreOffline(input), 1),
        timeUs(() => scoreOffline(input), 1),
      );
    });
  const hostile64 = hostileUs(65_536);
  const hostile16 = hostileUs(16 * 1024);
  const worst = hostile64.indexOf(Math.max(...hostile64));
  const t1k = at(1024);
  const t16k = at(16 * 1024);
  const t64k = timeText(full);
  return {
    "scorer.median_us": Math.round(percentile(perTask, 50) * 10) / 10,
    "scorer.p99_us": Math.round(percentile(perTask, 99) * 10) / 10,
    "scorer.1KiB_us": Math.round(t1k),
    "scorer.16KiB_us": Math.round(t16k),
    "scorer.64KiB_us": Math.round(t64k),
    "scorer.64KiB_per_KiB_vs_1KiB": Math.round((t64k / 64 / t1k) * 100) / 100,
    "scorer.64KiB_per_KiB_vs_16KiB": Math.round((t64k / 4 / t16k) * 100) / 100,
    "scorer.hostile_64KiB_worst_ms": Math.round(hostile64[worst]! / 100) / 10,
    "scorer.hostile_64KiB_worst_per_KiB_vs_16KiB":
      Math.round((hostile64[worst]! / 4 / hostile16[worst]!) * 100) / 100,
  };
}
