import { createHash } from "node:crypto";
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import {
  ScorerFailedError,
  ScorerTimeoutError,
  ScorerUnavailableError,
  TaskScorerError,
} from "../core/errors.js";
import { scoreOffline } from "../core/offline/offline-scorer.js";
import { PERSONAS, type Persona, type PersonaId } from "../core/personas.js";
import type { PersonaVerdict, ScoreOptions, Scorer } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";
import { ConcurrencyLimit } from "./concurrency-limit.js";
import { LruCache } from "./lru-cache.js";
import {
  PERSONA_VERDICT_JSON_SCHEMA,
  PERSONA_VERDICT_SCHEMA_NAME,
  parseVerdict,
  type PersonaVerdictOutput,
} from "./persona-verdict.schema.js";
import {
  promptVersion,
  renderRepairMessage,
  renderSystemPrompt,
  renderTaskMessage,
} from "./persona-messages.js";
import {
  CallCancelledError,
  DEFAULT_RETRY_POLICY,
  abortableSleep,
  backoffDelayMs,
  classifyCallError,
  type CallFailure,
  type FailureKind,
  type RetryPolicy,
} from "./retry-policy.js";

export interface LlmLogger {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
  debug: (obj: object, msg?: string) => void;
}

export type OfflineFallback = "none" | "offline";

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

/** What a report cost; logged once per report. */
export interface ReportStats {
  modelCalls: number;
  cacheHits: number;
  retries: number;
  repairs: number;
  promptTokens: number;
  completionTokens: number;
}

interface CachedVerdict {
  score: number;
  reasoning: string;
  model: string;
}

interface PersonaResult {
  verdict: PersonaVerdict;
  model: string;
  cached: boolean;
  truncated: boolean;
  latencyMs: number;
}

/** One model gave up for one persona, after its retry and repair budget. */
class ModelFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.what);
  }
}

/** Every model in a persona's chain gave up. */
class PersonaFailure extends Error {
  constructor(
    readonly persona: Persona,
    readonly failure: CallFailure,
    readonly modelsTried: readonly string[],
  ) {
    super(failure.what);
  }
}

/** One report's budget: every call, retry and backoff of every persona shares it. */
interface ReportBudget {
  /** Aborted at the deadline, or when the caller gives up. */
  signal: AbortSignal;
  /** Date.now() value past which no call starts and every running call is cut. */
  deadlineAt: number;
  budgetMs: number;
  expired: () => boolean;
}

/** A persona's call cut by the report's deadline: not retried, not tried on another model. */
function deadlineFailure(model: string, budget: ReportBudget): CallFailure {
  return {
    kind: "timeout",
    retryable: false,
    tryOtherModel: false,
    what: `The model ${model} did not answer within the report's deadline of ${Math.round(budget.budgetMs / 100) / 10} s`,
    advice: "try again later",
  };
}

interface Flight {
  promise: Promise<PersonaVerdict[]>;
  controller: AbortController;
  /** Callers still interested that could give up (callers without a signal never do). */
  cancellable: number;
  /** A caller without a signal waits to the end, so the flight is never cancelled. */
  pinned: boolean;
}

const noopLogger: LlmLogger = { info() {}, warn() {}, error() {}, debug() {} };

/** "The Revenue Expert", "the Revenue Expert and UX Designer", "all five personas". */
export function namePersonas(experts: readonly string[]): string {
  if (experts.length === PERSONAS.length) return "all five personas";
  if (experts.length === 1) return `the ${experts[0]}`;
  return `the ${experts.slice(0, -1).join(", ")} and ${experts[experts.length - 1]}`;
}

/** When personas fail differently, the report's error follows the most fundamental cause. */
const KIND_PRIORITY: readonly FailureKind[] = ["unavailable", "timeout", "failed"];

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
 * system prompt, sent in parallel. All five verdicts come back schema-checked, or a typed error
 * naming the persona(s) and the cause is thrown: never a partial report.
 */
export class OpenAiScorer implements Scorer {
  readonly name = "openai";
  private readonly client: OpenAI;
  private readonly cache: LruCache<CachedVerdict>;
  private readonly limit: ConcurrencyLimit;
  private readonly policy: RetryPolicy;
  private readonly log: LlmLogger;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly reportTimeoutMs: number;
  private readonly maxInputTokens: number;
  private readonly chains: Readonly<Record<PersonaId, readonly string[]>>;
  /** Reports being made now, by input: identical concurrent requests share one (single-flight). */
  private readonly flights = new Map<string, Flight>();
  private readonly systemPrompts: Readonly<Record<PersonaId, string>>;
  /** Totals since start, for the benchmark and health views. */
  readonly totals: ReportStats = emptyStats();

  constructor(private readonly options: OpenAiScorerOptions) {
    this.timeoutMs = options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs;
    // A longer per-call limit (a slow local model) gets at least one whole call when no caller sets a deadline.
    this.reportTimeoutMs =
      options.reportTimeoutMs ?? Math.max(OPENAI_DEFAULTS.reportTimeoutMs, this.timeoutMs);
    this.maxInputTokens = options.maxInputTokens ?? OPENAI_DEFAULTS.maxInputTokens;
    this.policy = {
      ...DEFAULT_RETRY_POLICY,
      ...options.retry,
      maxRetries: options.maxRetries ?? OPENAI_DEFAULTS.maxRetries,
    };
    this.log = options.logger ?? noopLogger;
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.cache = new LruCache({
      maxEntries: options.cacheSize ?? OPENAI_DEFAULTS.cacheSize,
      ttlMs: options.cacheTtlMs ?? OPENAI_DEFAULTS.cacheTtlMs,
      now: this.now,
    });
    this.limit = new ConcurrencyLimit(options.maxConcurrency ?? OPENAI_DEFAULTS.maxConcurrency);
    this.client = new OpenAI({
      apiKey: options.apiKey,
      // Always explicit: otherwise the SDK would quietly read OPENAI_BASE_URL from the environment.
      baseURL: options.baseURL ?? OPENAI_DEFAULTS.baseURL,
      // One retry budget, ours: the SDK's own retries would multiply it without our Retry-After cap.
      maxRetries: 0,
      // Our own per-call timer decides; this is only a backstop.
      timeout: this.timeoutMs + 1_000,
      // Our logs describe each call; the SDK's debug output could include request details.
      logLevel: "off",
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const fallbacks = options.fallbackModels ?? [];
    const chain = (primary: string) => [primary, ...fallbacks.filter((m) => m !== primary)];
    this.chains = Object.fromEntries(
      PERSONAS.map((p) => [p.id, chain(options.personaModels?.[p.id] ?? options.model)]),
    ) as Record<PersonaId, string[]>;
    this.systemPrompts = Object.fromEntries(PERSONAS.map((p) => [p.id, renderSystemPrompt(p.id)])) as Record<
      PersonaId,
      string
    >;
  }

  /** The models each persona will try, in order: primary first, then the fallbacks. */
  modelsFor(persona: PersonaId): readonly string[] {
    return this.chains[persona];
  }

  /** Drop every cached verdict (tests, benchmark). */
  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Identical concurrent requests share one report: the second waits for the first's five calls
   * instead of making five more. The shared work is cancelled only when every caller has given up,
   * and it runs under the first caller's deadline.
   */
  async score(input: TaskInput, options: ScoreOptions = {}): Promise<PersonaVerdict[]> {
    const key = `${input.task}\u0000${input.description}`;
    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const made: Flight = { controller, cancellable: 0, pinned: false, promise: Promise.resolve([]) };
      made.promise = this.scoreOnce(input, {
        signal: controller.signal,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      }).finally(() => this.flights.delete(key));
      this.flights.set(key, made);
      flight = made;
    }
    const shared = flight;
    const signal = options.signal;
    if (!signal) shared.pinned = true;
    else {
      shared.cancellable++;
      const leave = () => {
        shared.cancellable--;
        if (shared.cancellable === 0 && !shared.pinned) shared.controller.abort();
      };
      if (signal.aborted) leave();
      else signal.addEventListener("abort", leave, { once: true });
    }
    return shared.promise;
  }

  private async scoreOnce(input: TaskInput, options: ScoreOptions): Promise<PersonaVerdict[]> {
    const started = this.now();
    const stats = emptyStats();
    const budgetMs = Math.max(0, options.timeoutMs ?? this.reportTimeoutMs);
    const deadlineAt = Date.now() + budgetMs;
    const controller = new AbortController();
    let deadlineHit = false;
    const timer = setTimeout(() => {
      deadlineHit = true;
      controller.abort();
    }, budgetMs);
    const onCallerAbort = () => controller.abort();
    options.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const budget: ReportBudget = {
      signal: controller.signal,
      deadlineAt,
      budgetMs,
      expired: () => deadlineHit || Date.now() >= deadlineAt,
    };
    let settled: PromiseSettledResult<PersonaResult>[];
    try {
      settled = await Promise.allSettled(
        PERSONAS.map((persona) => this.judgePersona(persona, input, stats, budget)),
      );
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCallerAbort);
    }
    addStats(this.totals, stats);

    // Past the deadline, a persona cut while waiting (for a slot or a backoff) failed by the clock.
    if (budget.expired() && !options.signal?.aborted) {
      settled = settled.map((r, i) =>
        r.status === "rejected" && !(r.reason instanceof PersonaFailure)
          ? {
              status: "rejected",
              reason: new PersonaFailure(
                PERSONAS[i]!,
                deadlineFailure(this.chains[PERSONAS[i]!.id][0]!, budget),
                [],
              ),
            }
          : r,
      );
    }

    if (
      options.signal?.aborted ||
      settled.some((r) => r.status === "rejected" && r.reason instanceof CallCancelledError)
    ) {
      this.logReport(stats, started, [], "llm scoring cancelled");
      throw new ScorerTimeoutError(
        "Scoring was cancelled before every persona's model answered; no report was made.",
      );
    }

    const results: (PersonaResult | undefined)[] = [];
    const failures: PersonaFailure[] = [];
    settled.forEach((r, i) => {
      if (r.status === "fulfilled") {
        results[i] = r.value;
        return;
      }
      const persona = PERSONAS[i]!;
      const reason: unknown = r.reason;
      if (reason instanceof PersonaFailure) failures.push(reason);
      else {
        // A bug of ours, not the provider's: keep the detail in the log, give the caller a clean 502.
        this.log.error({ persona: persona.id, err: reason }, "unexpected error while scoring a persona");
        failures.push(
          new PersonaFailure(
            persona,
            {
              kind: "failed",
              retryable: false,
              tryOtherModel: false,
              what: "The LLM scorer failed unexpectedly",
            },
            [],
          ),
        );
      }
    });

    if (failures.length > 0 && this.options.fallback !== "offline") {
      this.logReport(stats, started, results, "llm scoring failed", failures);
      throw reportError(failures);
    }

    let verdicts: PersonaVerdict[];
    if (failures.length > 0) {
      // Opt-in: the failed personas are scored offline and say so, so the report is still whole.
      const offline = scoreOffline(input);
      verdicts = PERSONAS.map((p, i) => {
        const done = results[i];
        if (done) return done.verdict;
        const failure = failures.find((f) => f.persona.id === p.id)!;
        const fallback = offline.find((v) => v.persona === p.id)!;
        return {
          persona: p.id,
          score: fallback.score,
          reasoning: `(Scored offline because the model failed: ${failure.failure.what}.) ${fallback.reasoning}`,
          source: "offline fallback",
        };
      });
      this.log.warn(
        {
          personas: failures.map((f) => f.persona.id),
          causes: failures.map((f) => f.failure.what),
        },
        "llm scoring fell back to the offline scorer for some personas",
      );
    } else {
      verdicts = results.map((r) => r!.verdict);
    }
    this.logReport(stats, started, results, "llm scoring finished", failures);
    return verdicts;
  }

  private logReport(
    stats: ReportStats,
    started: number,
    results: readonly (PersonaResult | undefined)[],
    msg: string,
    failures: readonly PersonaFailure[] = [],
  ): void {
    this.log.info(
      {
        scorer: this.name,
        latencyMs: this.now() - started,
        ...stats,
        totalTokens: stats.promptTokens + stats.completionTokens,
        personas: PERSONAS.map((p, i) => {
          const r = results[i];
          const f = failures.find((x) => x.persona.id === p.id);
          return r
            ? {
                persona: p.id,
                model: r.model,
                cached: r.cached,
                latencyMs: r.latencyMs,
                truncated: r.truncated,
              }
            : { persona: p.id, failed: f ? f.failure.kind : "cancelled", modelsTried: f?.modelsTried ?? [] };
        }),
      },
      msg,
    );
  }

  private cacheKey(persona: PersonaId, input: TaskInput): string {
    return createHash("sha256")
      .update(
        JSON.stringify([
          persona,
          this.chains[persona],
          promptVersion(persona),
          this.maxInputTokens,
          input.task,
          input.description,
        ]),
      )
      .digest("hex");
  }

  private async judgePersona(
    persona: Persona,
    input: TaskInput,
    stats: ReportStats,
    budget: ReportBudget,
  ): Promise<PersonaResult> {
    const started = this.now();
    const key = this.cacheKey(persona.id, input);
    const task = renderTaskMessage(input, this.maxInputTokens);
    const hit = this.cache.get(key);
    if (hit) {
      stats.cacheHits++;
      return {
        verdict: { persona: persona.id, score: hit.score, reasoning: hit.reasoning, source: hit.model },
        model: hit.model,
        cached: true,
        truncated: task.truncated,
        latencyMs: this.now() - started,
      };
    }

    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: this.systemPrompts[persona.id] },
      { role: "user", content: task.text },
    ];
    const chain = this.chains[persona.id];
    const tried: string[] = [];
    let last: CallFailure | undefined;
    for (const model of chain) {
      tried.push(model);
      try {
        const output = await this.askModel(persona, model, messages, stats, budget);
        this.cache.set(key, { ...output, model });
        return {
          verdict: { persona: persona.id, score: output.score, reasoning: output.reasoning, source: model },
          model,
          cached: false,
          truncated: task.truncated,
          latencyMs: this.now() - started,
        };
      } catch (error) {
        if (!(error instanceof ModelFailure)) throw error;
        last = error.failure;
        this.log.warn(
          { persona: persona.id, model, kind: last.kind, status: last.status, cause: last.what },
          "model gave up for persona",
        );
        if (!last.tryOtherModel) break;
      }
    }
    const failure = last!;
    const what =
      tried.length > 1 ? `${failure.what}, after ${tried.slice(0, -1).join(", ")} also failed` : failure.what;
    throw new PersonaFailure(persona, { ...failure, what }, tried);
  }

  /** One persona, one model: the retry budget and the single repair attempt live here. */
  private async askModel(
    persona: Persona,
    model: string,
    base: ChatCompletionMessageParam[],
    stats: ReportStats,
    budget: ReportBudget,
  ): Promise<PersonaVerdictOutput> {
    const signal = budget.signal;
    let retriesLeft = this.policy.maxRetries;
    let retryIndex = 0;
    let repaired = false;
    let messages = base;
    for (;;) {
      let completion: ChatCompletion;
      try {
        completion = await this.limit.run(() => this.callModel(model, messages, stats, budget), signal);
      } catch (error) {
        if (error instanceof CallCancelledError) {
          if (budget.expired()) throw new ModelFailure(deadlineFailure(model, budget));
          throw error;
        }
        const failure = error as CallFailure;
        if (!failure.retryable || retriesLeft === 0) throw new ModelFailure(failure);
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > this.policy.maxRetryAfterMs) {
          throw new ModelFailure({
            ...failure,
            what: `${failure.what} and asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s, longer than we wait`,
          });
        }
        const delay = failure.retryAfterMs ?? backoffDelayMs(retryIndex, this.policy, this.random);
        // A retry that could not even start before the deadline is not worth waiting for.
        if (Date.now() + delay >= budget.deadlineAt) throw new ModelFailure(failure);
        retriesLeft--;
        retryIndex++;
        stats.retries++;
        this.log.debug(
          {
            persona: persona.id,
            model,
            status: failure.status,
            kind: failure.kind,
            delayMs: delay,
            retriesLeft,
          },
          "retrying model call",
        );
        try {
          await this.sleep(delay, signal);
        } catch (error) {
          if (budget.expired()) throw new ModelFailure(deadlineFailure(model, budget));
          throw error;
        }
        if (signal.aborted) {
          if (budget.expired()) throw new ModelFailure(deadlineFailure(model, budget));
          throw new CallCancelledError();
        }
        continue;
      }

      const choice = completion.choices[0];
      const message = choice?.message;
      if (message?.refusal) {
        throw new ModelFailure({
          kind: "failed",
          retryable: false,
          tryOtherModel: true,
          what: `The model ${model} declined to judge the task (refusal)`,
          advice: "reword the task, or configure OPENAI_FALLBACK_MODELS",
        });
      }
      if (choice?.finish_reason === "content_filter") {
        throw new ModelFailure({
          kind: "failed",
          retryable: false,
          tryOtherModel: true,
          what: `The provider's content filter blocked the answer of ${model}`,
          advice: "reword the task",
        });
      }
      const parsed = parseVerdict(message?.content);
      if (parsed.ok) return parsed.value;
      const problem =
        choice?.finish_reason === "length"
          ? "the answer was cut off before it ended; keep it short"
          : parsed.problem;
      if (repaired) {
        throw new ModelFailure({
          kind: "failed",
          retryable: false,
          tryOtherModel: true,
          what: `The model ${model} did not return a valid score after one repair attempt (${problem})`,
          advice: "use a model that supports structured outputs",
        });
      }
      repaired = true;
      stats.repairs++;
      this.log.debug({ persona: persona.id, model, problem }, "asking the model to repair its answer");
      messages = [
        ...base,
        { role: "assistant", content: message?.content ?? "" },
        { role: "user", content: renderRepairMessage(problem) },
      ];
    }
  }

  /** One HTTP call with its own timer. Throws a CallFailure (classified) or CallCancelledError. */
  private async callModel(
    model: string,
    messages: ChatCompletionMessageParam[],
    stats: ReportStats,
    budget: ReportBudget,
  ): Promise<ChatCompletion> {
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
      Math.min(this.timeoutMs, remaining),
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
          ...(this.options.temperature !== undefined ? { temperature: this.options.temperature } : {}),
        },
        { signal: controller.signal, maxRetries: 0 },
      );
      stats.promptTokens += completion.usage?.prompt_tokens ?? 0;
      stats.completionTokens += completion.usage?.completion_tokens ?? 0;
      return completion;
    } catch (error) {
      if (budget.expired()) throw deadlineFailure(model, budget);
      if (signal.aborted && !timedOut) throw new CallCancelledError();
      throw classifyCallError(error, { model, timedOut, timeoutMs: this.timeoutMs, now: this.now() });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }
}

function emptyStats(): ReportStats {
  return { modelCalls: 0, cacheHits: 0, retries: 0, repairs: 0, promptTokens: 0, completionTokens: 0 };
}

function addStats(into: ReportStats, from: ReportStats): void {
  for (const k of Object.keys(into) as (keyof ReportStats)[]) into[k] += from[k];
}

/** One typed error for the whole report, naming each cause and the personas it hit. */
export function reportError(failures: readonly PersonaFailure[]): TaskScorerError {
  const groups = new Map<string, { failure: CallFailure; experts: string[] }>();
  for (const f of failures) {
    const key = `${f.failure.what}|${f.failure.advice ?? ""}`;
    const group = groups.get(key) ?? { failure: f.failure, experts: [] };
    group.experts.push(f.persona.expert);
    groups.set(key, group);
  }
  const sentences = [...groups.values()].map(
    (g) =>
      `${g.failure.what} for ${namePersonas(g.experts)}${g.failure.advice ? `; ${g.failure.advice}` : ""}.`,
  );
  const message = `${sentences.join(" ")} No report was made.`;
  const details = { personas: failures.map((f) => f.persona.expert) };
  const kind = KIND_PRIORITY.find((k) => failures.some((f) => f.failure.kind === k)) ?? "failed";
  if (kind === "unavailable") return new ScorerUnavailableError(message, details);
  if (kind === "timeout") return new ScorerTimeoutError(message, details);
  return new ScorerFailedError(message, details);
}
