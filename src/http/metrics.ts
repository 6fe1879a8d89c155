import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Scorer, ScorerStats } from "../core/scorer.js";

/** What the metrics read from parts owned elsewhere: the webhook queue and the scorer's running totals. */
export interface MetricSources {
  /** Jobs queued or running, and how many finished or failed since start (the App's JobQueue). */
  queue?:
    | { readonly size: number; readonly stats: { completed: number; failed: number; timedOut: number } }
    | undefined;
  /** The scorer's totals since start (model calls, tokens, cache hits), when it counts them. */
  scorer?: Pick<Scorer, "scorerStats"> | undefined;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  /** One finished HTTP request; `route` is the route pattern (never the raw path, to bound cardinality). */
  observeRequest(method: string, route: string, status: number): void;
  /** Wrap a scorer so every scoring (REST, App, CLI) is timed, with its outcome. */
  instrumentScorer<S extends Scorer>(scorer: S): S;
  /** Attach the queue and the scorer's totals once they exist. */
  setSources(sources: MetricSources): void;
}

/**
 * Prometheus metrics on a registry of their own (not prom-client's global one), so each server in a
 * test run, or the CLI, has independent counts. Counters owned by other parts are read at scrape
 * time from their own stats objects rather than incremented from inside them.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  let sources: MetricSources = {};
  const scorerStats = (): ScorerStats => sources.scorer?.scorerStats?.() ?? {};

  // Counted in plain numbers on every request and handed to prom-client only when scraped: prom-client's
  // labelled increment hashes its labels each time, a few µs on a path whose whole budget is tens of µs.
  // Keyed by the parts themselves (method, then route, then status), not by a string made of them: the route
  // and method are the same strings every time, whose hashes V8 keeps, while a new key string must be hashed.
  const requestCounts = new Map<
    string,
    Map<string, Map<number, { labels: { method: string; route: string; status: string }; n: number }>>
  >();
  new Counter({
    name: "task_scorer_http_requests_total",
    help: "HTTP requests by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const routes of requestCounts.values())
        for (const statuses of routes.values())
          for (const { labels, n } of statuses.values()) this.inc(labels, n);
    },
  });
  const latency = new Histogram({
    name: "task_scorer_scoring_duration_seconds",
    help: "Time to score one task (all five personas), by scorer and outcome",
    labelNames: ["scorer", "outcome"] as const,
    buckets: [0.0001, 0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  new Gauge({
    name: "task_scorer_webhook_queue_depth",
    help: "Webhook jobs queued or running",
    registers: [registry],
    collect() {
      this.set(sources.queue?.size ?? 0);
    },
  });
  // Counters mirrored from running totals kept elsewhere: reset, then set to the total at scrape time.
  const mirrored = (name: string, help: string, read: () => number, labels?: Record<string, string>) => {
    const counter = new Counter({
      name,
      help,
      labelNames: labels ? Object.keys(labels) : [],
      registers: [registry],
      collect() {
        this.reset();
        const value = read();
        if (labels) this.inc(labels, value);
        else this.inc(value);
      },
    });
    return counter;
  };
  new Counter({
    name: "task_scorer_webhook_jobs_total",
    help: "Webhook jobs finished, by result (done, failed, or timed_out: abandoned at the job's time limit)",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: "done" }, sources.queue?.stats.completed ?? 0);
      this.inc({ result: "failed" }, sources.queue?.stats.failed ?? 0);
      this.inc({ result: "timed_out" }, sources.queue?.stats.timedOut ?? 0);
    },
  });
  mirrored(
    "task_scorer_model_calls_total",
    "Calls to the model provider",
    () => scorerStats().modelCalls ?? 0,
  );
  new Counter({
    name: "task_scorer_model_tokens_total",
    help: "Model tokens used, by kind (prompt or completion)",
    labelNames: ["kind"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const stats = scorerStats();
      this.inc({ kind: "prompt" }, stats.promptTokens ?? 0);
      this.inc({ kind: "completion" }, stats.completionTokens ?? 0);
    },
  });
  new Counter({
    name: "task_scorer_cache_hits_total",
    help: "Answers from a cache instead of scoring: llm = persona verdicts from the LLM scorer's cache, offline = reports from the offline scorer's memo",
    labelNames: ["cache"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const hits = scorerStats().cacheHits;
      this.inc({ cache: "llm" }, hits?.llm ?? 0);
      this.inc({ cache: "offline" }, hits?.offline ?? 0);
    },
  });

  return {
    registry,
    observeRequest(method, route, status) {
      let routes = requestCounts.get(method);
      if (!routes) requestCounts.set(method, (routes = new Map()));
      let statuses = routes.get(route);
      if (!statuses) routes.set(route, (statuses = new Map()));
      const count = statuses.get(status);
      if (count) count.n++;
      else statuses.set(status, { labels: { method, route, status: String(status) }, n: 1 });
    },
    instrumentScorer(scorer) {
      const wrapped = Object.create(scorer) as typeof scorer;
      wrapped.score = async (task, options) => {
        const end = latency.startTimer({ scorer: scorer.name });
        try {
          const verdicts = await scorer.score(task, options);
          end({ outcome: "ok" });
          return verdicts;
        } catch (err) {
          end({ outcome: "error" });
          throw err;
        }
      };
      return wrapped;
    },
    setSources(next) {
      sources = { ...sources, ...next };
    },
  };
}
