/**
 * LLM scorer benchmark against a local OpenAI-compatible stand-in on loopback (no network, no key).
 * It checks the claims that matter for cost and speed:
 * - the five persona calls really run in parallel (wall time per report / one call's delay <= 1.15),
 * - a report costs five model calls, and zero when the same task is scored again (cache),
 * - p99 latency of 20 concurrent reports under the concurrency cap, which is never exceeded.
 *
 * Run: node --import tsx bench/llm-bench.ts [--delay-ms 200] [--reports 20] [--cap 20] [--rounds 3] [--smoke]
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createScorer } from "../src/llm/create-scorer.js";
import type { OpenAiScorer } from "../src/llm/openai-scorer.js";

export interface LlmBenchOptions {
  /** How long the stand-in takes to answer one model call. */
  delayMs?: number;
  /** Reports scored at the same time in the load phase. */
  reports?: number;
  /** OPENAI_MAX_CONCURRENCY for the load phase. */
  concurrencyCap?: number;
  /** Load-phase repetitions, for more samples behind the p99. */
  rounds?: number;
  /** Sequential single reports used for the parallelism ratio (the median is reported). */
  parallelRuns?: number;
  /** Hard stop for the whole benchmark. */
  timeLimitMs?: number;
  /** A quick run that only checks the benchmark works (CI); its figures are not meaningful. */
  smoke?: boolean;
}

interface StandIn {
  url: string;
  calls: () => number;
  peakInFlight: () => number;
  resetPeak: () => void;
  close: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A minimal chat-completions endpoint: waits `delayMs`, then answers each persona with a valid verdict. */
async function startStandIn(delayMs: number): Promise<StandIn> {
  let calls = 0;
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(await readBody(req)) as { model: string; messages: { content: string }[] };
      calls++;
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, delayMs));
      inFlight--;
      const expert = /You are the (.+?) on a jury/.exec(body.messages[0]?.content ?? "")?.[1] ?? "expert";
      const content = JSON.stringify({
        score: 7,
        reasoning: `As the ${expert}, the stand-in model finds this task reasonable.`,
      });
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content, refusal: null },
              finish_reason: "stop",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: 600, completion_tokens: 40, total_tokens: 640 },
        }),
      );
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    peakInFlight: () => peak,
    resetPeak: () => {
      peak = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function scorerFor(url: string, cap: number): OpenAiScorer {
  return createScorer(
    {
      scorer: "openai",
      openaiApiKey: "sk-bench-not-a-real-key",
      openaiBaseUrl: url,
      model: "bench-model",
      maxConcurrency: cap,
      timeoutSeconds: 20,
      maxRetries: 0,
    },
    {},
  ).scorer as OpenAiScorer;
}

async function measure(options: LlmBenchOptions): Promise<Record<string, number | string>> {
  const smoke = options.smoke ?? false;
  const delayMs = options.delayMs ?? (smoke ? 50 : 200);
  const reports = options.reports ?? (smoke ? 5 : 20);
  const cap = options.concurrencyCap ?? (smoke ? 5 : 20);
  const rounds = options.rounds ?? (smoke ? 1 : 3);
  const parallelRuns = options.parallelRuns ?? (smoke ? 2 : 5);

  const standIn = await startStandIn(delayMs);
  try {
    // Phase 1: one report at a time, nothing else running. The cap is the default so it does not interfere.
    const single = scorerFor(standIn.url, 10);
    await single.score({ task: "Warm-up task", description: "Opens connections and warms the JIT." });
    const ratios: number[] = [];
    let callsPerReport = 0;
    for (let i = 0; i < parallelRuns; i++) {
      const before = standIn.calls();
      const started = performance.now();
      await single.score({ task: `Parallelism probe ${i}`, description: "Five personas, one round trip." });
      ratios.push((performance.now() - started) / delayMs);
      callsPerReport = standIn.calls() - before;
    }
    ratios.sort((a, b) => a - b);

    // Phase 2: the same task again is served from the cache.
    const beforeHit = standIn.calls();
    const hitStarted = performance.now();
    await single.score({ task: "Parallelism probe 0", description: "Five personas, one round trip." });
    const cacheHitMs = performance.now() - hitStarted;
    const callsOnCacheHit = standIn.calls() - beforeHit;

    // Phase 3: many reports at once, all distinct, through one scorer with the cap.
    const loaded = scorerFor(standIn.url, cap);
    await loaded.score({ task: "Warm-up under load", description: "" });
    standIn.resetPeak();
    const latencies: number[] = [];
    const loadStarted = performance.now();
    for (let r = 0; r < rounds; r++) {
      await Promise.all(
        Array.from({ length: reports }, async (_, i) => {
          const started = performance.now();
          await loaded.score({ task: `Concurrent task ${r}-${i}`, description: "Load phase." });
          latencies.push(performance.now() - started);
        }),
      );
    }
    const loadMs = performance.now() - loadStarted;
    latencies.sort((a, b) => a - b);
    const idealWaves = Math.ceil((reports * 5) / cap);

    const ratio = percentile(ratios, 50);
    // Prefixed like the other benchmarks' figures, so `npm run bench` can show them in one table.
    return {
      "llm.delay_ms": delayMs,
      "llm.wall_per_report_over_delay": round2(ratio),
      "llm.parallel_target": ratio <= 1.15 ? "ok (<= 1.15)" : "MISSED (> 1.15)",
      "llm.model_calls_per_report": callsPerReport,
      "llm.model_calls_on_cache_hit": callsOnCacheHit,
      "llm.cache_hit_ms": round2(cacheHitMs),
      "llm.concurrent_reports": reports,
      "llm.concurrency_cap": cap,
      "llm.peak_in_flight": standIn.peakInFlight(),
      "llm.p50_ms": Math.round(percentile(latencies, 50)),
      "llm.p99_ms": Math.round(percentile(latencies, 99)),
      "llm.p99_over_ideal": round2(percentile(latencies, 99) / (idealWaves * delayMs)),
      "llm.reports_per_second": round2((reports * rounds) / (loadMs / 1000)),
    };
  } finally {
    await standIn.close();
  }
}

/** Runs the benchmark and returns its figures; never takes longer than `timeLimitMs` (default 30 s). */
export async function runLlmBench(options: LlmBenchOptions = {}): Promise<Record<string, number | string>> {
  const limit = options.timeLimitMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the LLM benchmark took longer than ${limit} ms`)), limit);
  });
  try {
    return await Promise.race([measure(options), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options: LlmBenchOptions = {};
  const delayMs = flag("delay-ms");
  const reports = flag("reports");
  const cap = flag("cap");
  const rounds = flag("rounds");
  if (delayMs !== undefined) options.delayMs = delayMs;
  if (reports !== undefined) options.reports = reports;
  if (cap !== undefined) options.concurrencyCap = cap;
  if (rounds !== undefined) options.rounds = rounds;
  if (process.argv.includes("--smoke")) options.smoke = true;
  runLlmBench(options)
    .then((figures) => {
      const width = Math.max(...Object.keys(figures).map((k) => k.length));
      console.log("LLM scorer benchmark (loopback stand-in)");
      for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(width)}  ${v}`);
      process.exit(0);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
