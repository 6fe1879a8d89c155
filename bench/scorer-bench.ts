import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { loadCorpus } from "../test/helpers/corpus.js";

function timeUs(fn: () => void, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Offline scorer CPU per task over the corpus, and how it grows with text length up to the 64 KiB limit. */
export function runScorerBench(options: { iterations: number }): Record<string, number> {
  const corpus = loadCorpus() ?? [
    { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" },
  ];
  const tasks = corpus.map((c) => ({ task: c.task, description: c.description ?? "" }));
  for (const t of tasks) for (let i = 0; i < 50; i++) scoreOffline(t); // warm-up
  const perTask = tasks.map((t) => timeUs(() => scoreOffline(t), options.iterations)).sort((a, b) => a - b);

  // Realistic prose repeated to the size wanted: linear growth means time per KiB stays flat.
  const prose = tasks.map((t) => t.description).join("\n\n");
  const sized = (bytes: number) => prose.repeat(Math.ceil(bytes / prose.length)).slice(0, bytes);
  const at = (bytes: number) =>
    timeUs(() => scoreOffline({ task: "Large description", description: sized(bytes) }), 20);
  const t1k = at(1024);
  const t16k = at(16 * 1024);
  const t64k = at(65_536);
  return {
    "scorer.median_us": Math.round(percentile(perTask, 50) * 10) / 10,
    "scorer.p99_us": Math.round(percentile(perTask, 99) * 10) / 10,
    "scorer.1KiB_us": Math.round(t1k),
    "scorer.16KiB_us": Math.round(t16k),
    "scorer.64KiB_us": Math.round(t64k),
    "scorer.64KiB_per_KiB_vs_1KiB": Math.round((t64k / 64 / t1k) * 100) / 100,
  };
}
