import { describe, expect, it } from "@jest/globals";
import { createScorer } from "../../src/llm/create-scorer.js";
import { PERSONA_MODEL_VARIABLES, scorerSettingsFromEnv } from "../../src/config/llm-env.schema.js";
import { ConfigError } from "../../src/core/errors.js";
import { OpenAiScorer } from "../../src/llm/openai-scorer.js";
import { FAKE_KEY, captureLogger } from "../helpers/llm-test-kit.js";

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("scorerSettingsFromEnv", () => {
  it("with nothing set: auto, and no LLM settings", () => {
    expect(scorerSettingsFromEnv({})).toEqual({
      scorer: "auto",
      fallback: "none",
      openaiApiKey: undefined,
      openaiBaseUrl: undefined,
      model: undefined,
      timeoutSeconds: undefined,
      maxRetries: undefined,
      maxConcurrency: undefined,
      maxInputTokens: undefined,
      temperature: undefined,
      cacheSize: undefined,
      cacheTtlSeconds: undefined,
    });
  });

  it("reads every variable", () => {
    const settings = scorerSettingsFromEnv({
      SCORER: "openai",
      OPENAI_API_KEY: FAKE_KEY,
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_MODEL: "llama3.1",
      OPENAI_MODEL_REVENUE_EXPERT: "gpt-4o",
      OPENAI_MODEL_TECHNICAL_ARCHITECT: "qwen2.5-coder",
      OPENAI_MODEL_UX_DESIGNER: "",
      OPENAI_FALLBACK_MODELS: "gpt-4o-mini, , llama3.1:8b",
      OPENAI_TIMEOUT_SECONDS: "12.5",
      OPENAI_MAX_RETRIES: "0",
      OPENAI_MAX_CONCURRENCY: "4",
      OPENAI_MAX_INPUT_TOKENS: "2000",
      OPENAI_TEMPERATURE: "0",
      SCORER_FALLBACK: "offline",
      SCORER_CACHE_SIZE: "0",
      SCORER_CACHE_TTL_SECONDS: "60",
    });
    expect(settings).toEqual({
      scorer: "openai",
      openaiApiKey: FAKE_KEY,
      openaiBaseUrl: "http://localhost:11434/v1",
      model: "llama3.1",
      personaModels: { revenue: "gpt-4o", architect: "qwen2.5-coder" },
      fallbackModels: ["gpt-4o-mini", "llama3.1:8b"],
      timeoutSeconds: 12.5,
      maxRetries: 0,
      maxConcurrency: 4,
      maxInputTokens: 2000,
      temperature: 0,
      fallback: "offline",
      cacheSize: 0,
      cacheTtlSeconds: 60,
    });
  });

  it("names one variable per persona after its public name", () => {
    expect(Object.values(PERSONA_MODEL_VARIABLES)).toEqual([
      "OPENAI_MODEL_REVENUE_EXPERT",
      "OPENAI_MODEL_TECHNICAL_ARCHITECT",
      "OPENAI_MODEL_UX_DESIGNER",
      "OPENAI_MODEL_PRODUCT_MANAGER",
      "OPENAI_MODEL_MARKETING_STRATEGIST",
    ]);
  });

  it.each([
    [{ SCORER: "gpt" }, /SCORER: expected auto, offline or openai/],
    [{ OPENAI_TIMEOUT_SECONDS: "soon" }, /OPENAI_TIMEOUT_SECONDS: expected a number of seconds above 0/],
    [{ OPENAI_TIMEOUT_SECONDS: "0" }, /OPENAI_TIMEOUT_SECONDS/],
    [{ OPENAI_MAX_RETRIES: "2.5" }, /OPENAI_MAX_RETRIES: expected a whole number from 0 to 10/],
    [{ OPENAI_MAX_RETRIES: "-1" }, /OPENAI_MAX_RETRIES/],
    [{ OPENAI_MAX_CONCURRENCY: "0" }, /OPENAI_MAX_CONCURRENCY/],
    [{ OPENAI_MAX_INPUT_TOKENS: "ten" }, /OPENAI_MAX_INPUT_TOKENS/],
    [{ SCORER_FALLBACK: "yes" }, /SCORER_FALLBACK: expected none or offline/],
    [{ SCORER_CACHE_SIZE: "-5" }, /SCORER_CACHE_SIZE/],
    [{ SCORER_CACHE_TTL_SECONDS: "x" }, /SCORER_CACHE_TTL_SECONDS/],
    [{ OPENAI_TEMPERATURE: "3" }, /OPENAI_TEMPERATURE: expected a number from 0 to 2/],
    [{ OPENAI_BASE_URL: "localhost:11434" }, /OPENAI_BASE_URL: expected an http\(s\) URL/],
    [{ OPENAI_BASE_URL: "ftp://example.com/v1" }, /OPENAI_BASE_URL/],
    [
      { OPENAI_MODEL_REVENUE: "gpt-4o" },
      /OPENAI_MODEL_REVENUE is not a known variable; per-persona models are set with OPENAI_MODEL_REVENUE_EXPERT/,
    ],
  ])("refuses %j with a message naming the variable", (env, message) => {
    expect(configError(() => scorerSettingsFromEnv(env)).message).toMatch(message);
  });

  it("never echoes the values it refuses", () => {
    const error = configError(() =>
      scorerSettingsFromEnv({ OPENAI_BASE_URL: `not a url ${FAKE_KEY}`, OPENAI_API_KEY: FAKE_KEY }),
    );
    expect(error.message).not.toContain(FAKE_KEY);
  });
});

describe("createScorer", () => {
  it("auto without a key stays offline, and says why", () => {
    const log = captureLogger();
    const created = createScorer(scorerSettingsFromEnv({}), { logger: log.logger });
    expect(created.scorer.name).toBe("offline");
    expect(created.description).toBe("offline");
    expect(log.lines[0]!.msg).toBe("scorer: offline (SCORER=auto and no OPENAI_API_KEY)");
  });

  it("SCORER=offline wins over a key", () => {
    expect(createScorer({ scorer: "offline", openaiApiKey: FAKE_KEY }).scorer.name).toBe("offline");
  });

  it("auto with a key picks the LLM scorer and logs the choice without the key", () => {
    const log = captureLogger();
    const created = createScorer(
      scorerSettingsFromEnv({
        OPENAI_API_KEY: FAKE_KEY,
        OPENAI_BASE_URL: "https://user:secret@llm.example.com/v1?api-key=abc",
        OPENAI_MODEL_UX_DESIGNER: "gpt-ux",
        OPENAI_FALLBACK_MODELS: "gpt-backup",
      }),
      { logger: log.logger },
    );
    expect(created.scorer).toBeInstanceOf(OpenAiScorer);
    expect(created.scorer.name).toBe("openai");
    expect(created.description).toBe("openai gpt-4o-mini (mixed jury)");
    const scorer = created.scorer as OpenAiScorer;
    expect(scorer.modelsFor("ux")).toEqual(["gpt-ux", "gpt-backup"]);
    expect(scorer.modelsFor("revenue")).toEqual(["gpt-4o-mini", "gpt-backup"]);
    expect(log.lines[0]!.msg).toBe("scorer: openai gpt-4o-mini (mixed jury) at https://llm.example.com/v1");
    expect(log.text()).not.toContain(FAKE_KEY);
    expect(log.text()).not.toContain("secret");
    expect(log.text()).not.toContain("api-key=abc");
  });

  it("the four Action inputs are enough", () => {
    const created = createScorer({
      scorer: "openai",
      openaiApiKey: FAKE_KEY,
      openaiBaseUrl: "http://127.0.0.1:1234/v1",
      model: "local-model",
    });
    expect(created.description).toBe("openai local-model");
    expect((created.scorer as any).client.baseURL).toBe("http://127.0.0.1:1234/v1");
  });

  it("SCORER=openai without a key is a clear configuration error", () => {
    const error = configError(() => createScorer({ scorer: "openai", openaiApiKey: "  " }));
    expect(error.message).toMatch(/SCORER=openai needs OPENAI_API_KEY/);
  });
});
