import type OpenAI from "openai";
import type { PersonaId } from "../core/personas.js";
import type { PersonaVerdict, ScoreOptions, Scorer, ScorerStats } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";
import { ConcurrencyLimit } from "./concurrency-limit.js";
import { JuryScorer } from "./jury-scorer.js";
import { noopLogger, type LlmLogger } from "./llm-logger.js";
import { ModelChainJudge, modelChains } from "./model-chain.js";
import { ModelClient } from "./model-client.js";
import type { OfflineFallback } from "./offline-fallback.js";
import { renderTaskMessage } from "./persona-messages.js";
import { CachedPersonaJudge } from "./persona-verdict-cache.js";
import { emptyStats, type ReportStats } from "./report-stats.js";
import { DEFAULT_RETRY_POLICY, abortableSleep, type RetryPolicy } from "./retry-policy.js";
import { singleFlightScorer } from "./single-flight-scorer.js";

export interface OpenAiScorerOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint; defaults to OpenAI's own. */
  baseURL?: string | undefined;
  model: string;
  /** Per-persona model overrides, so a team can mix model families on one jury. */
  personaModels?: Partial<Record<PersonaId, string>> | undefined;
  /** Tried in order when a persona's model keeps failing. */
  fallbackModels?: readonly string[] | undefined;
  timeoutMs?: number | undefined;
  /** The report's deadline when a caller sets none (ScoreOptions.timeoutMs); default 30 s or one call's limit, the longer. */
  reportTimeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  maxConcurrency?: number | undefined;
  maxInputTokens?: number | undefined;
  fallback?: OfflineFallback | undefined;
  cacheSize?: number | undefined;
  cacheTtlMs?: number | undefined;
  /** Unset by default: reasoning models reject the parameter. */
  temperature?: number | undefined;
  retry?: Partial<Omit<RetryPolicy, "maxRetries">> | undefined;
  logger?: LlmLogger | undefined;
  /** Injected in tests and the benchmark; defaults to the global fetch. */
  fetch?: typeof fetch | undefined;
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  now?: (() => number) | undefined;
}

export const OPENAI_DEFAULTS = {
  baseURL: "https://api.openai.com/v1",
  model: "gpt-4o-mini",
  timeoutMs: 30_000,
  /** The report's deadline when the caller sets none: the same as the REST default (REQUEST_TIMEOUT_SECONDS). */
  reportTimeoutMs: 30_000,
  maxRetries: 2,
  maxConcurrency: 10,
  maxInputTokens: 4_000,
  cacheSize: 500,
  cacheTtlMs: 60 * 60 * 1000,
} as const;

/** Strip credentials and query strings (Azure keys sometimes ride there) before a URL is logged. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}

/**
 * The LLM scorer: a jury of five independent model calls, one per persona, each with its own
 * system prompt, sent in parallel. Assembled from its parts, outermost first: single-flight
 * (identical concurrent requests share one report), the jury (one deadline budget, the offline
 * fallback), the per-persona verdict cache, the model chain (fallback models), and one model's
 * retries and repair.
 */
export class OpenAiScorer implements Scorer {
  readonly name = "openai";
  /** Totals since start, for the benchmark and the metrics. */
  readonly totals: ReportStats = emptyStats();
  private readonly chains: Readonly<Record<PersonaId, readonly string[]>>;
  private readonly cache: CachedPersonaJudge;
  private readonly scorer: Scorer;
  /** The SDK's client, kept in sight so tests can check the endpoint and that the SDK never retries. */
  private readonly client: OpenAI;

  constructor(options: OpenAiScorerOptions) {
    const timeoutMs = options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs;
    const maxInputTokens = options.maxInputTokens ?? OPENAI_DEFAULTS.maxInputTokens;
    const log = options.logger ?? noopLogger;
    const now = options.now ?? Date.now;
    this.chains = modelChains(options.model, options.personaModels, options.fallbackModels);
    const client = new ModelClient({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? OPENAI_DEFAULTS.baseURL,
      timeoutMs,
      temperature: options.temperature,
      fetch: options.fetch,
      now,
    });
    this.client = client.client;
    const chain = new ModelChainJudge(
      this.chains,
      {
        client,
        limit: new ConcurrencyLimit(options.maxConcurrency ?? OPENAI_DEFAULTS.maxConcurrency),
        policy: {
          ...DEFAULT_RETRY_POLICY,
          ...options.retry,
          maxRetries: options.maxRetries ?? OPENAI_DEFAULTS.maxRetries,
        },
        log,
        sleep: options.sleep ?? abortableSleep,
        random: options.random ?? Math.random,
      },
      now,
    );
    this.cache = new CachedPersonaJudge(chain, {
      maxEntries: options.cacheSize ?? OPENAI_DEFAULTS.cacheSize,
      ttlMs: options.cacheTtlMs ?? OPENAI_DEFAULTS.cacheTtlMs,
      now,
      chains: this.chains,
      maxInputTokens,
    });
    const jury = new JuryScorer({
      name: this.name,
      judge: this.cache,
      renderTask: (input) => renderTaskMessage(input, maxInputTokens),
      primaryModel: (persona) => this.chains[persona][0]!,
      // A longer per-call limit (a slow local model) gets at least one whole call when no caller sets a deadline.
      reportTimeoutMs: options.reportTimeoutMs ?? Math.max(OPENAI_DEFAULTS.reportTimeoutMs, timeoutMs),
      fallback: options.fallback ?? "none",
      totals: this.totals,
      log,
      now,
    });
    this.scorer = singleFlightScorer(jury);
  }

  /** The models each persona will try, in order: primary first, then the fallbacks. */
  modelsFor(persona: PersonaId): readonly string[] {
    return this.chains[persona];
  }

  /** Drop every cached verdict (tests, benchmark). */
  clearCache(): void {
    this.cache.clear();
  }

  score(input: TaskInput, options?: ScoreOptions): Promise<readonly PersonaVerdict[]> {
    return this.scorer.score(input, options);
  }

  /** Model calls, tokens and verdict-cache hits since start, for the metrics. */
  scorerStats(): ScorerStats {
    const { modelCalls, promptTokens, completionTokens, cacheHits } = this.totals;
    return { modelCalls, promptTokens, completionTokens, cacheHits: { llm: cacheHits } };
  }
}
