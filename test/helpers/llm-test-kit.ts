import { afterAll, afterEach, beforeAll } from "@jest/globals";
import nock from "nock";
import { OpenAiScorer, type OpenAiScorerOptions } from "../../src/llm/openai-scorer.js";

/** No real network for the file's tests: only what nock intercepts answers, and nothing carries over. */
export function offlineNetwork(): void {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });
  afterAll(() => {
    nock.enableNetConnect();
  });
}

export const BASE_URL = "http://llm.test/v1";
export const FAKE_KEY = "sk-test-not-a-real-key";
export const EXPERTS = [
  "Revenue Expert",
  "Technical Architect",
  "UX Designer",
  "Product Manager",
  "Marketing Strategist",
] as const;

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: any;
  temperature?: number;
}

/** Which persona a request is for, read from its system prompt. */
export function expertOf(body: ChatRequest): string {
  const m = /You are the (.+?) on a jury/.exec(body.messages[0]?.content ?? "");
  return m ? m[1]! : "unknown";
}

export function completion(
  content: string | null,
  extra: { refusal?: string; finish_reason?: string; model?: string } = {},
) {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: extra.model ?? "gpt-test",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: extra.refusal ?? null },
        finish_reason: extra.finish_reason ?? "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 },
  };
}

export function verdictJson(expert: string, score = 7): string {
  return JSON.stringify({ score, reasoning: `As the ${expert} I see a clear reason for this score.` });
}

export interface CapturedLog {
  level: string;
  obj: object;
  msg?: string;
}

export function captureLogger() {
  const lines: CapturedLog[] = [];
  const at = (level: string) => (obj: object, msg?: string) => {
    lines.push({ level, obj, ...(msg !== undefined ? { msg } : {}) });
  };
  return {
    lines,
    logger: { info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug") },
    text: () =>
      JSON.stringify(lines, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v)),
  };
}

export function makeScorer(overrides: Partial<OpenAiScorerOptions> = {}) {
  const sleeps: number[] = [];
  const log = captureLogger();
  const scorer = new OpenAiScorer({
    apiKey: FAKE_KEY,
    baseURL: BASE_URL,
    model: "gpt-test",
    logger: log.logger,
    // Sleeps are recorded, not waited for, so retries and backoff are checked without slowing the suite.
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { scorer, sleeps, log };
}

/** Answer every chat request with `respond`, recording what was asked. */
export function interceptChat(
  respond: (body: ChatRequest, call: number) => [number, unknown, Record<string, string>?],
  times = 50,
) {
  const requests: ChatRequest[] = [];
  const headers: Record<string, string | string[]>[] = [];
  const scope = nock("http://llm.test")
    .post("/v1/chat/completions")
    .times(times)
    .reply(function (_uri, body) {
      const request = body as ChatRequest;
      requests.push(request);
      headers.push({ ...this.req.headers });
      const [status, payload, h] = respond(request, requests.length);
      return [status, payload as any, h ?? {}];
    });
  return { requests, headers, scope };
}
