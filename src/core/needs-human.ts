import { KIND_WORDS } from "./kind-words.js";
import { PERSONAS, type PersonaId } from "./personas.js";
import type { ScoreReport } from "./score-report.schema.js";

/**
 * When a report should go to a person rather than be acted on, as issue 17 defines it: the personas
 * disagree by 4 points or more (two of them read the task very differently), or the reader gave its kind
 * less than even odds. Both are plain readings of the report, not fitted thresholds. On the 300 issues of
 * the labelled corpus, with the offline judge, they mark 43 and 19 issues (about a fifth in all).
 */
export const NEEDS_HUMAN = { spread: 4, kindConfidence: 0.5 } as const;

/** Why a person should look, one short clause per reason; empty when the report can be acted on. */
export function needsHumanReasons(report: ScoreReport): string[] {
  const reasons: string[] = [];
  const { minScore, maxScore } = report.consensus;
  if (maxScore - minScore >= NEEDS_HUMAN.spread) {
    const high = report.expertScores.find((e) => e.score === maxScore);
    const low = report.expertScores.find((e) => e.score === minScore);
    reasons.push(
      `the personas are ${maxScore - minScore} points apart (${high?.expert ?? "one"} ${maxScore}, ${low?.expert ?? "another"} ${minScore})`,
    );
  }
  const { kind, kindConfidence } = report.reading;
  if (kindConfidence < NEEDS_HUMAN.kindConfidence)
    reasons.push(
      `the reader is only ${Math.round(kindConfidence * 100)}% sure this is ${KIND_WORDS[kind] ?? kind}`,
    );
  return reasons;
}

export function needsHuman(report: ScoreReport): boolean {
  return needsHumanReasons(report).length > 0;
}

/** The comment's one line on it, or nothing. */
export function renderNeedsHuman(report: ScoreReport): string | undefined {
  const reasons = needsHumanReasons(report);
  if (reasons.length === 0) return undefined;
  return `**Needs a human:** ${reasons.join("; and ")}.`;
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
