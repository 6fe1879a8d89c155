import {
  ScorerFailedError,
  ScorerTimeoutError,
  ScorerUnavailableError,
  TaskScorerError,
} from "../core/errors.js";
import { PERSONAS, type Persona } from "../core/personas.js";
import type { CallFailure, FailureKind } from "./retry-policy.js";

/** One model gave up for one persona, after its retry and repair budget. */
export class ModelFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.what);
  }
}

/** Every model in a persona's chain gave up. */
export class PersonaFailure extends Error {
  constructor(
    readonly persona: Persona,
    readonly failure: CallFailure,
    readonly modelsTried: readonly string[],
  ) {
    super(failure.what);
  }
}

/** "The Revenue Expert", "the Revenue Expert and UX Designer", "all five personas". */
export function namePersonas(experts: readonly string[]): string {
  if (experts.length === PERSONAS.length) return "all five personas";
  if (experts.length === 1) return `the ${experts[0]}`;
  return `the ${experts.slice(0, -1).join(", ")} and ${experts[experts.length - 1]}`;
}

/** When personas fail differently, the report's error follows the most fundamental cause. */
const KIND_PRIORITY: readonly FailureKind[] = ["unavailable", "timeout", "failed"];

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
