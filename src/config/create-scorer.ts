import { ConfigError } from "../core/errors.js";
import { offlineScorer } from "../core/offline/offline-scorer.js";
import type { Scorer } from "../core/scorer.js";

/**
 * Scorer settings, whatever their source: environment variables (server), Action inputs, tests.
 * The LLM scorer extends this; adapters map their own inputs onto it.
 */
export interface ScorerSettings {
  /** auto = openai when an API key is set, else offline. */
  scorer: "auto" | "offline" | "openai";
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
  model?: string | undefined;
}

export interface ScorerLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
  debug: (obj: object, msg?: string) => void;
}

export interface CreatedScorer {
  scorer: Scorer;
  /** Shown in logs and footers: "offline" or "openai gpt-4o-mini". */
  description: string;
}

/** Pick the scorer for these settings. The LLM scorer is not wired in yet: `openai` is refused clearly. */
export function createScorer(settings: ScorerSettings, _deps: { logger?: ScorerLogger } = {}): CreatedScorer {
  const wantsOpenAi = settings.scorer === "openai" || (settings.scorer === "auto" && Boolean(settings.openaiApiKey));
  if (!wantsOpenAi) return { scorer: offlineScorer, description: "offline" };
  throw new ConfigError("The OpenAI scorer is not available in this build; set SCORER=offline.");
}
