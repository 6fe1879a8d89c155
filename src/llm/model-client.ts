import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { PERSONA_VERDICT_JSON_SCHEMA, PERSONA_VERDICT_SCHEMA_NAME } from "./persona-verdict.schema.js";
import { deadlineFailure, type ReportBudget } from "./report-budget.js";
import type { ReportStats } from "./report-stats.js";
import { CallCancelledError, classifyCallError } from "./retry-policy.js";

export interface ModelClientOptions {
  apiKey: string;
  baseURL: string;
  /** One call's own limit; the report's deadline may cut it shorter. */
  timeoutMs: number;
  temperature?: number | undefined;
  fetch?: typeof fetch | undefined;
  now: () => number;
}

/** The OpenAI-compatible endpoint, one chat completion at a time, each under its own timer. */
export class ModelClient {
  /** The SDK's client: where calls go, and with which SDK settings. */
  readonly client: OpenAI;

  constructor(private readonly options: ModelClientOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      // Always explicit: otherwise the SDK would quietly read OPENAI_BASE_URL from the environment.
      baseURL: options.baseURL,
      // One retry budget, ours: the SDK's own retries would multiply it without our Retry-After cap.
      maxRetries: 0,
      // Our own per-call timer decides; this is only a backstop.
      timeout: options.timeoutMs + 1_000,
      // Our logs describe each call; the SDK's debug output could include request details.
      logLevel: "off",
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** One HTTP call with its own timer. Throws a CallFailure (classified) or CallCancelledError. */
  async call(
    model: string,
    messages: ChatCompletionMessageParam[],
    stats: ReportStats,
    budget: ReportBudget,
  ): Promise<ChatCompletion> {
    const { timeoutMs, temperature } = this.options;
    const signal = budget.signal;
    const remaining = budget.deadlineAt - Date.now();
    if (signal.aborted || remaining <= 0) {
      if (budget.expired()) throw deadlineFailure(model, budget);
      throw new CallCancelledError();
    }
    const controller = new AbortController();
    let timedOut = false;
    // The call's own limit, never past the report's deadline.
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.min(timeoutMs, remaining),
    );
    const onAbort = () => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    stats.modelCalls++;
    try {
      const completion = await this.client.chat.completions.create(
        {
          model,
          messages,
          response_format: {
            type: "json_schema",
            json_schema: {
              name: PERSONA_VERDICT_SCHEMA_NAME,
              strict: true,
              schema: PERSONA_VERDICT_JSON_SCHEMA,
            },
          },
          ...(temperature !== undefined ? { temperature } : {}),
        },
        { signal: controller.signal, maxRetries: 0 },
      );
      stats.promptTokens += completion.usage?.prompt_tokens ?? 0;
      stats.completionTokens += completion.usage?.completion_tokens ?? 0;
      return completion;
    } catch (error) {
      if (budget.expired()) throw deadlineFailure(model, budget);
      if (signal.aborted && !timedOut) throw new CallCancelledError();
      throw classifyCallError(error, { model, timedOut, timeoutMs, now: this.options.now() });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }
}
