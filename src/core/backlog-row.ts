import type { ApprovalPolicy } from "./approval.js";
import { PERSONAS, type PersonaId } from "./personas.js";
import type { ScoreReport } from "./score-report.schema.js";

/**
 * When a report should go to a person rather than be acted on: the numbers say the machine is unsure.
 * Each bar is a plain reading of the report, not a fitted threshold:
 * - the average sits within half a point of the approval bar (one persona's point either way flips it);
 * - the personas disagree by 4 points or more (two of them read the task very differently);
 * - the reader gave its kind less than even odds.
 */
export const NEEDS_HUMAN = { nearBar: 0.5, spread: 4, kindConfidence: 0.5 } as const;

export function needsHuman(report: ScoreReport, policy: Pick<ApprovalPolicy, "minAverage">): boolean {
  const { avgScore, minScore, maxScore } = report.consensus;
  return (
    Math.abs(avgScore - policy.minAverage) < NEEDS_HUMAN.nearBar ||
    maxScore - minScore >= NEEDS_HUMAN.spread ||
    report.reading.kindConfidence < NEEDS_HUMAN.kindConfidence
  );
}

/** The five persona scores by id, as the backlog lists them. */
export function personaScores(report: ScoreReport): Record<PersonaId, number> {
  const out = {} as Record<PersonaId, number>;
  for (const p of PERSONAS) {
    const found = report.expertScores.find((e) => e.expert === p.expert);
    out[p.id] = found?.score ?? 0;
  }
  return out;
}
