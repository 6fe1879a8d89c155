import type { RepositoryCalibration } from "../core/offline/calibration.js";
import { scoreOffline } from "../core/offline/offline-scorer.js";
import { PERSONAS } from "../core/personas.js";
import type { PersonaVerdict } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";
import type { LlmLogger } from "./llm-logger.js";
import type { PersonaResult } from "./model-chain.js";
import type { PersonaFailure } from "./persona-failures.js";

/** SCORER_FALLBACK: "none" fails the report when a persona fails; "offline" scores that persona offline. */
export type OfflineFallback = "none" | "offline";

/**
 * Opt-in: the failed personas are scored offline and say so, so the report is still whole. The
 * models' verdicts are kept as they are; only the failed personas get an offline stand-in.
 */
export function fillWithOfflineVerdicts(
  input: TaskInput,
  results: readonly (PersonaResult | undefined)[],
  failures: readonly PersonaFailure[],
  log: LlmLogger,
  calibration?: RepositoryCalibration,
): PersonaVerdict[] {
  // The repository's learned calibration, when there is one, as the offline scorer would use it.
  const offline = scoreOffline(input, undefined, calibration);
  const verdicts = PERSONAS.map((p, i) => {
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
  log.warn(
    {
      personas: failures.map((f) => f.persona.id),
      causes: failures.map((f) => f.failure.what),
    },
    "llm scoring fell back to the offline scorer for some personas",
  );
  return verdicts;
}
