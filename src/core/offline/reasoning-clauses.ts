/**
 * What a persona's reasoning may say about the evidence and about what moved the consensus, and only what is true
 * of the reading the report shows: quotes in the author's words, absences only where the finder's recall is
 * measured, the judge's drivers only where the reading agrees with them.
 */
import { contributions, FEATURES, type JudgeModel } from "./judge-model.js";
import { claimedKind, type TaskReading } from "./read-task.js";
import type { EvidenceType } from "./read-evidence.js";
import { isSevere } from "./read-structure.js";

/** The structural features that moved the consensus most, in words, for the product persona's summary. */
const FEATURE_WORDS: Record<string, [up: string, down: string]> = {
  "kind.bug": ["it is a bug report", "it is not a bug report"],
  "kind.chore": ["it is maintenance work", "it is not maintenance work"],
  "kind.docs": ["it is a documentation task", ""],
  "kind.question": ["", "it is a question rather than a request"],
  "severity.severe": ["the defect is severe", ""],
  "title.version": ["the title names a version", ""],
  own_words: ["the author wrote a full description", "the description is short"],
  template_share: ["", "much of the description is template text"],
  "evidence.steps": ["it has steps to reproduce", ""],
  "evidence.trace": ["it has error output", ""],
  "evidence.acceptance": ["it says what done looks like", ""],
  "evidence.demand": ["it gives numbers about demand", ""],
  "evidence.versions": ["it names versions", ""],
  hype: ["", "it makes claims of value without evidence"],
  "title.question": ["", "the title is a question"],
};

/** How much of a description must be unanswered template before a reasoning calls it template text. */
const PROMPT_SHARE_SAID = 1 / 3;

/** The reading's evidence type behind each evidence feature the judge counts. */
const FEATURE_EVIDENCE: Record<string, EvidenceType> = {
  "evidence.steps": "steps",
  "evidence.trace": "trace",
  "evidence.acceptance": "acceptance",
  "evidence.demand": "demand",
  "evidence.versions": "versions",
};

/**
 * Whether a feature's words are true of what the reading tells the user. The judge's features come from the
 * structural reading, whose kind and evidence are cruder than the reading's (a heading asks for steps; a
 * title word says bug where the kind model says question): "it is a bug report" beside "It reads as a
 * question" would contradict the report, and "it has steps" where no steps are quoted cannot be checked.
 */
function trueOfReading(name: string, up: boolean, r: TaskReading): boolean {
  const kind = claimedKind(r);
  if (name.startsWith("kind.")) {
    // A kind is named only where the reader is sure of it (KIND_CLAIM_BAR): "it is a bug report", "it is not a
    // bug report" and "it is a question" are claims like any other.
    const said = name.slice("kind.".length);
    const saysItIs = said === "question" ? !up : up;
    return kind !== null && (saysItIs ? kind === said : kind !== said);
  }
  // A severe defect is said only of a report read as a bug with that severity (a compiler's "fatal error" in a
  // question is not a crash).
  if (name === "severity.severe") return !up || (kind === "bug" && isSevere(r.reading.severity));
  const type = FEATURE_EVIDENCE[name];
  return !type || !up || r.reading.evidence.some((e) => e.type === type);
}

export function drivers(r: TaskReading, model: JudgeModel): string | undefined {
  const c = contributions(model, r.features);
  const ranked = c
    .map((v, i) => ({ v, name: FEATURES[i]!.name }))
    .filter((x) => Math.abs(x.v) >= 0.15 && FEATURE_WORDS[x.name]?.[x.v > 0 ? 0 : 1])
    .filter((x) => trueOfReading(x.name, x.v > 0, r))
    // The fitted feature counts every heading; "template text" is said only where a third of the
    // description is the template's own, unanswered (see promptShare).
    .filter((x) => x.name !== "template_share" || r.structure.promptShare >= PROMPT_SHARE_SAID)
    .sort((a, b) => Math.abs(b.v) - Math.abs(a.v))
    .slice(0, 2);
  if (ranked.length === 0) return undefined;
  return ranked.map((x) => FEATURE_WORDS[x.name]![x.v > 0 ? 0 : 1]).join(", and ");
}
