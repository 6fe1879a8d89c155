import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { PERSONAS, type Persona, type PersonaId } from "../core/personas.js";
import type { PersonaVerdict } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";
import { askModel, type AskModelDeps } from "./ask-model.js";
import { ModelFailure, PersonaFailure } from "./persona-failures.js";
import { renderSystemPrompt } from "./persona-messages.js";
import type { ReportBudget } from "./report-budget.js";
import type { ReportStats } from "./report-stats.js";
import type { CallFailure } from "./retry-policy.js";

/** One persona's part of one report. */
export interface PersonaRequest {
  persona: Persona;
  input: TaskInput;
  /** The task as the model reads it, cut to the token budget. */
  task: { text: string; truncated: boolean };
  stats: ReportStats;
  budget: ReportBudget;
}

export interface PersonaResult {
  verdict: PersonaVerdict;
  model: string;
  cached: boolean;
  truncated: boolean;
  latencyMs: number;
}

/**
 * Judges one persona: the model chain, and decorators around it (the verdict cache). Throws a
 * PersonaFailure when the persona cannot be judged, or CallCancelledError when the report is cut.
 */
export interface PersonaJudge {
  judge(request: PersonaRequest): Promise<PersonaResult>;
}

/** Each persona's models, primary first, then the fallbacks that are not already its primary. */
export function modelChains(
  model: string,
  personaModels: Partial<Record<PersonaId, string>> | undefined,
  fallbackModels: readonly string[] | undefined,
): Readonly<Record<PersonaId, readonly string[]>> {
  const fallbacks = fallbackModels ?? [];
  const chain = (primary: string) => [primary, ...fallbacks.filter((m) => m !== primary)];
  return Object.fromEntries(PERSONAS.map((p) => [p.id, chain(personaModels?.[p.id] ?? model)])) as Record<
    PersonaId,
    string[]
  >;
}

/** Asks a persona's models in order until one gives a valid verdict or one fails for good. */
export class ModelChainJudge implements PersonaJudge {
  private readonly systemPrompts: Readonly<Record<PersonaId, string>>;

  constructor(
    private readonly chains: Readonly<Record<PersonaId, readonly string[]>>,
    private readonly deps: AskModelDeps,
    private readonly now: () => number,
  ) {
    this.systemPrompts = Object.fromEntries(PERSONAS.map((p) => [p.id, renderSystemPrompt(p.id)])) as Record<
      PersonaId,
      string
    >;
  }

  async judge({ persona, input, task, stats, budget }: PersonaRequest): Promise<PersonaResult> {
    const started = this.now();
    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: this.systemPrompts[persona.id] },
      { role: "user", content: task.text },
    ];
    const tried: string[] = [];
    let last: CallFailure | undefined;
    for (const model of this.chains[persona.id]) {
      tried.push(model);
      try {
        const output = await askModel(this.deps, persona, model, messages, stats, budget, input);
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
        this.deps.log.warn(
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
}
