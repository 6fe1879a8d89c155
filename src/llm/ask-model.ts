import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Persona } from "../core/personas.js";
import type { ConcurrencyLimit } from "./concurrency-limit.js";
import type { LlmLogger } from "./llm-logger.js";
import type { ModelClient } from "./model-client.js";
import { ModelFailure } from "./persona-failures.js";
import { parseVerdict, type PersonaVerdictOutput } from "./persona-verdict.schema.js";
import { renderRepairMessage } from "./persona-messages.js";
import { dropMisquotes, misquoteProblem, misquotes } from "./quote-check.js";
import { deadlineFailure, type ReportBudget } from "./report-budget.js";
import type { ReportStats } from "./report-stats.js";
import { CallCancelledError, backoffDelayMs, type CallFailure, type RetryPolicy } from "./retry-policy.js";

/** What asking one model needs besides the question: shared by every persona of every report. */
export interface AskModelDeps {
  client: ModelClient;
  /** Caps concurrent calls across reports. */
  limit: ConcurrencyLimit;
  policy: RetryPolicy;
  log: LlmLogger;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

/** The task's own text, which a reasoning's quotes must come from. */
export interface QuotedTask {
  task: string;
  description: string;
}

/**
 * One persona, one model: the retry budget and the single repair attempt live here. Throws a
 * ModelFailure when this model gives up (the chain may try the next), or CallCancelledError.
 *
 * With `source`, a reasoning that quotes words not in the task is repaired like malformed output, once; if the
 * repair still misquotes (or fails), the misquoted spans lose their quote marks rather than ship as the author's.
 */
export async function askModel(
  deps: AskModelDeps,
  persona: Persona,
  model: string,
  base: ChatCompletionMessageParam[],
  stats: ReportStats,
  budget: ReportBudget,
  source?: QuotedTask,
): Promise<PersonaVerdictOutput> {
  const held: { misquoted?: PersonaVerdictOutput } = {};
  try {
    return await ask(deps, persona, model, base, stats, budget, source, held);
  } catch (error) {
    // A valid answer whose only fault was a misquote beats no answer when its repair went wrong.
    if (!(error instanceof ModelFailure) || held.misquoted === undefined || source === undefined) throw error;
    deps.log.debug(
      { persona: persona.id, model, cause: error.failure.what },
      "the repair failed: using the first answer without its false quotes",
    );
    return { ...held.misquoted, reasoning: dropMisquotes(held.misquoted.reasoning, source) };
  }
}

async function ask(
  deps: AskModelDeps,
  persona: Persona,
  model: string,
  base: ChatCompletionMessageParam[],
  stats: ReportStats,
  budget: ReportBudget,
  source: QuotedTask | undefined,
  held: { misquoted?: PersonaVerdictOutput },
): Promise<PersonaVerdictOutput> {
  const { client, limit, policy, log } = deps;
  const signal = budget.signal;
  let retriesLeft = policy.maxRetries;
  let retryIndex = 0;
  let repaired = false;
  let messages = base;
  for (;;) {
    let completion: ChatCompletion;
    try {
      completion = await limit.run(() => client.call(model, messages, stats, budget), signal);
    } catch (error) {
      if (error instanceof CallCancelledError) {
        if (budget.expired()) throw new ModelFailure(deadlineFailure(model, budget));
        throw error;
      }
      const failure = error as CallFailure;
      if (!failure.retryable || retriesLeft === 0) throw new ModelFailure(failure);
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) {
        throw new ModelFailure({
          ...failure,
          what: `${failure.what} and asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s, longer than we wait`,
        });
      }
      const delay = failure.retryAfterMs ?? backoffDelayMs(retryIndex, policy, deps.random);
      // A retry that could not even start before the deadline is not worth waiting for.
      if (Date.now() + delay >= budget.deadlineAt) throw new ModelFailure(failure);
      retriesLeft--;
      retryIndex++;
      stats.retries++;
      log.debug(
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
        await deps.sleep(delay, signal);
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
    const output = checkAnswer(choice, model, repaired);
    let problem: string;
    if (output.ok) {
      const bad = source === undefined ? [] : misquotes(output.value.reasoning, source);
      if (bad.length === 0) return output.value;
      if (repaired) {
        log.debug(
          { persona: persona.id, model },
          "the repair still misquotes: dropping its false quote marks",
        );
        return { ...output.value, reasoning: dropMisquotes(output.value.reasoning, source!) };
      }
      held.misquoted = output.value;
      problem = misquoteProblem(bad);
    } else problem = output.problem;
    repaired = true;
    stats.repairs++;
    log.debug({ persona: persona.id, model, problem }, "asking the model to repair its answer");
    messages = [
      ...base,
      { role: "assistant", content: message?.content ?? "" },
      { role: "user", content: renderRepairMessage(problem) },
    ];
  }
}

/**
 * A completion's verdict, or the problem to ask the model to repair. Refusals, the content filter
 * and a second bad answer are final for this model (the chain may try another).
 */
function checkAnswer(
  choice: ChatCompletion["choices"][number] | undefined,
  model: string,
  repaired: boolean,
): { ok: true; value: PersonaVerdictOutput } | { ok: false; problem: string } {
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
  if (parsed.ok) return { ok: true, value: parsed.value };
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
  return { ok: false, problem };
}
