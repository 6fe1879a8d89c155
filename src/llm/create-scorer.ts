import type { ScorerSettings } from "../config/llm-env.schema.js";
import { ConfigError } from "../core/errors.js";
import { memoizeScorer } from "../core/memoize-scorer.js";
import { offlineScorer } from "../core/offline/offline-scorer.js";

import type { Scorer } from "../core/scorer.js";
import type { LlmLogger } from "./llm-logger.js";
import { OPENAI_DEFAULTS, OpenAiScorer, safeUrl } from "./openai-scorer.js";

export type { ScorerSettings };

/** One memo for the process: repeated tasks (redeliveries, unchanged issues) are not scored twice. */
const memoizedOffline = memoizeScorer(offlineScorer);

export interface CreatedScorer {
  scorer: Scorer;
  /** Shown in logs and footers: "offline" or "openai gpt-4o-mini". */
  description: string;
}

export interface CreateScorerDeps {
  logger?: LlmLogger;
  /** Tests and the benchmark inject these; production uses the defaults. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** Pick the scorer for these settings and log the choice (never the key). */
export function createScorer(settings: ScorerSettings, deps: CreateScorerDeps = {}): CreatedScorer {
  const key = settings.openaiApiKey?.trim() || undefined;
  const wantsOpenAi = settings.scorer === "openai" || (settings.scorer === "auto" && key !== undefined);
  if (!wantsOpenAi) {
    deps.logger?.info(
      { scorer: "offline", requested: settings.scorer },
      settings.scorer === "auto"
        ? "scorer: offline (SCORER=auto and no OPENAI_API_KEY)"
        : "scorer: offline (SCORER=offline)",
    );
    return { scorer: memoizedOffline, description: "offline" };
  }
  if (!key) {
    throw new ConfigError(
      "SCORER=openai needs OPENAI_API_KEY. For a local server that ignores keys (Ollama, LM Studio, vLLM), set any value, e.g. OPENAI_API_KEY=local.",
    );
  }

  const model = settings.model?.trim() || OPENAI_DEFAULTS.model;
  const baseURL = settings.openaiBaseUrl?.trim() || OPENAI_DEFAULTS.baseURL;
  const scorer = new OpenAiScorer({
    apiKey: key,
    baseURL,
    model,
    personaModels: settings.personaModels,
    fallbackModels: settings.fallbackModels,
    timeoutMs: settings.timeoutSeconds !== undefined ? settings.timeoutSeconds * 1000 : undefined,
    maxRetries: settings.maxRetries,
    maxConcurrency: settings.maxConcurrency,
    maxInputTokens: settings.maxInputTokens,
    fallback: settings.fallback,
    cacheSize: settings.cacheSize,
    cacheTtlMs: settings.cacheTtlSeconds !== undefined ? settings.cacheTtlSeconds * 1000 : undefined,
    temperature: settings.temperature,
    logger: deps.logger,
    fetch: deps.fetch,
    sleep: deps.sleep,
    random: deps.random,
    now: deps.now,
  });
  const overrides = Object.entries(settings.personaModels ?? {}).filter(([, m]) => m && m !== model);
  const description = `openai ${model}${overrides.length > 0 ? " (mixed jury)" : ""}`;
  deps.logger?.info(
    {
      scorer: "openai",
      requested: settings.scorer,
      baseUrl: safeUrl(baseURL),
      model,
      personaModels: Object.fromEntries(overrides),
      fallbackModels: settings.fallbackModels ?? [],
      fallback: settings.fallback ?? "none",
    },
    `scorer: ${description} at ${safeUrl(baseURL)}`,
  );
  return { scorer, description };
}
