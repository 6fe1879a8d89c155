import { describe, expect, it } from "@jest/globals";
import { scoreOffline } from "../../src/core/offline/offline-scorer.js";
import type { Scorer, ScorerStats } from "../../src/core/scorer.js";
import { createMetrics } from "../../src/http/metrics.js";

/** The value of one sample line, e.g. `task_scorer_model_calls_total 5`. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  if (!line) throw new Error(`no sample ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

describe("metrics read any scorer's scorerStats()", () => {
  it("mirrors the counts at scrape time, whatever the scorer", async () => {
    const stats: ScorerStats = {
      modelCalls: 4,
      promptTokens: 10,
      completionTokens: 2,
      cacheHits: { llm: 3 },
    };
    const scorer: Scorer = { name: "any", score: async (t) => scoreOffline(t), scorerStats: () => stats };
    const metrics = createMetrics();
    metrics.setSources({ scorer });
    let text = await metrics.registry.metrics();
    expect(sample(text, "task_scorer_model_calls_total")).toBe(4);
    expect(sample(text, 'task_scorer_model_tokens_total{kind="prompt"}')).toBe(10);
    expect(sample(text, 'task_scorer_model_tokens_total{kind="completion"}')).toBe(2);
    expect(sample(text, 'task_scorer_cache_hits_total{cache="llm"}')).toBe(3);
    expect(sample(text, 'task_scorer_cache_hits_total{cache="offline"}')).toBe(0);
    stats.modelCalls = 9;
    text = await metrics.registry.metrics();
    expect(sample(text, "task_scorer_model_calls_total")).toBe(9);
  });

  it("a scorer without stats, or none at all, shows zeros", async () => {
    const metrics = createMetrics();
    expect(sample(await metrics.registry.metrics(), "task_scorer_model_calls_total")).toBe(0);
    const plain: Scorer = { name: "plain", score: async (t) => scoreOffline(t) };
    metrics.setSources({ scorer: plain });
    const text = await metrics.registry.metrics();
    expect(sample(text, "task_scorer_model_calls_total")).toBe(0);
    expect(sample(text, 'task_scorer_cache_hits_total{cache="offline"}')).toBe(0);
  });
});
