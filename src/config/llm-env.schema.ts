import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { PERSONAS, type PersonaId } from "../core/personas.js";

/** Docker, Compose and Actions often pass unset variables as "": treat them as unset. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const text = () => z.preprocess(blank, z.string().trim().optional());

function number(opts: { int?: boolean; min: number; max?: number; exclusiveMin?: boolean; hint: string }) {
  let n = z.coerce.number({ error: `expected ${opts.hint}` });
  if (opts.int) n = n.int({ error: `expected ${opts.hint}` });
  n = opts.exclusiveMin
    ? n.gt(opts.min, { error: `expected ${opts.hint}` })
    : n.min(opts.min, { error: `expected ${opts.hint}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `expected ${opts.hint}` });
  return z.preprocess(blank, n.optional());
}

/**
 * Scorer settings, whatever their source: environment variables (server), Action inputs, tests.
 * Only the first four are needed; the rest tune the LLM scorer and have sensible defaults.
 */
export interface ScorerSettings {
  /** auto = openai when an API key is set, else offline. */
  scorer: "auto" | "offline" | "openai";
  openaiApiKey?: string | undefined;
  /** Any OpenAI-compatible endpoint (Azure OpenAI, Ollama, vLLM, LM Studio, OpenRouter). */
  openaiBaseUrl?: string | undefined;
  /** The model every persona uses unless overridden; default gpt-4o-mini. */
  model?: string | undefined;
  /** Per-persona model overrides (the config map). */
  personaModels?: Partial<Record<PersonaId, string>> | undefined;
  /** Tried in order when a persona's model keeps failing. */
  fallbackModels?: readonly string[] | undefined;
  timeoutSeconds?: number | undefined;
  maxRetries?: number | undefined;
  maxConcurrency?: number | undefined;
  maxInputTokens?: number | undefined;
  /** "offline": personas whose model failed are scored offline (and say so) instead of failing the report. */
  fallback?: "none" | "offline" | undefined;
  /** 0 disables the cache. */
  cacheSize?: number | undefined;
  cacheTtlSeconds?: number | undefined;
  temperature?: number | undefined;
}

/** "Revenue Expert" -> OPENAI_MODEL_REVENUE_EXPERT: the variable names follow the personas' public names. */
export const PERSONA_MODEL_VARIABLES: Readonly<Record<PersonaId, string>> = Object.fromEntries(
  PERSONAS.map((p) => [p.id, `OPENAI_MODEL_${p.expert.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`]),
) as Record<PersonaId, string>;

const modelList = z.preprocess(
  blank,
  z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((m) => m.trim())
        .filter((m) => m !== ""),
    )
    .optional(),
);

/** The LLM scorer's environment. Every variable is optional: unset means the offline scorer. */
export const LlmEnvSchema = z.object({
  SCORER: z.preprocess(
    blank,
    z.enum(["auto", "offline", "openai"], { error: "expected auto, offline or openai" }).default("auto"),
  ),
  OPENAI_API_KEY: text(),
  OPENAI_BASE_URL: z.preprocess(
    blank,
    z
      .url({
        protocol: /^https?$/,
        error: "expected an http(s) URL such as https://api.openai.com/v1 or http://localhost:11434/v1",
      })
      .optional(),
  ),
  OPENAI_MODEL: text(),
  ...(Object.fromEntries(Object.values(PERSONA_MODEL_VARIABLES).map((name) => [name, text()])) as Record<
    string,
    ReturnType<typeof text>
  >),
  OPENAI_FALLBACK_MODELS: modelList,
  OPENAI_TIMEOUT_SECONDS: number({
    min: 0,
    exclusiveMin: true,
    max: 600,
    hint: "a number of seconds above 0, at most 600",
  }),
  OPENAI_MAX_RETRIES: number({ int: true, min: 0, max: 10, hint: "a whole number from 0 to 10" }),
  OPENAI_MAX_CONCURRENCY: number({ int: true, min: 1, max: 1000, hint: "a whole number from 1 to 1000" }),
  OPENAI_MAX_INPUT_TOKENS: number({
    int: true,
    min: 100,
    max: 1_000_000,
    hint: "a whole number of tokens from 100 to 1000000",
  }),
  OPENAI_TEMPERATURE: number({ min: 0, max: 2, hint: "a number from 0 to 2" }),
  SCORER_FALLBACK: z.preprocess(
    blank,
    z.enum(["none", "offline"], { error: "expected none or offline" }).default("none"),
  ),
  SCORER_CACHE_SIZE: number({
    int: true,
    min: 0,
    max: 1_000_000,
    hint: "a whole number of entries, 0 to disable",
  }),
  SCORER_CACHE_TTL_SECONDS: number({ min: 0, exclusiveMin: true, hint: "a number of seconds above 0" }),
});

export type LlmEnv = z.output<typeof LlmEnvSchema>;

/**
 * Read the scorer's settings from the environment. A bad value stops the start with a message
 * naming the variable; values are not echoed, since a misplaced key could be among them.
 */
export function scorerSettingsFromEnv(env: Record<string, string | undefined>): ScorerSettings {
  const known = new Set(Object.values(PERSONA_MODEL_VARIABLES));
  const unknown = Object.keys(env).filter(
    (name) => name.startsWith("OPENAI_MODEL_") && !known.has(name) && blank(env[name]) !== undefined,
  );
  if (unknown.length > 0) {
    throw new ConfigError(
      `${unknown.join(", ")} ${unknown.length === 1 ? "is not a known variable" : "are not known variables"}; per-persona models are set with ${[...known].join(", ")}.`,
    );
  }

  const parsed = LlmEnvSchema.safeParse(env);
  if (!parsed.success) {
    const text = parsed.error.issues
      .map((i) => `${String(i.path[0] ?? "(environment)")}: ${i.message}`)
      .join("; ");
    throw new ConfigError(`Invalid scorer configuration: ${text}. Fix the variable(s) and start again.`);
  }
  const e = parsed.data as LlmEnv & Record<string, string | undefined>;
  const personaModels: Partial<Record<PersonaId, string>> = {};
  for (const p of PERSONAS) {
    const model = e[PERSONA_MODEL_VARIABLES[p.id]];
    if (model) personaModels[p.id] = model;
  }
  return {
    scorer: e.SCORER,
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    model: e.OPENAI_MODEL,
    ...(Object.keys(personaModels).length > 0 ? { personaModels } : {}),
    ...(e.OPENAI_FALLBACK_MODELS && e.OPENAI_FALLBACK_MODELS.length > 0
      ? { fallbackModels: e.OPENAI_FALLBACK_MODELS }
      : {}),
    timeoutSeconds: e.OPENAI_TIMEOUT_SECONDS,
    maxRetries: e.OPENAI_MAX_RETRIES,
    maxConcurrency: e.OPENAI_MAX_CONCURRENCY,
    maxInputTokens: e.OPENAI_MAX_INPUT_TOKENS,
    temperature: e.OPENAI_TEMPERATURE,
    fallback: e.SCORER_FALLBACK,
    cacheSize: e.SCORER_CACHE_SIZE,
    cacheTtlSeconds: e.SCORER_CACHE_TTL_SECONDS,
  };
}
