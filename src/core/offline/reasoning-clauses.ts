/**
 * What a persona's reasoning may say about the evidence and about what moved the consensus, and only what is true
 * of the reading the report shows: quotes in the author's words, absences only where the finder's recall is
 * measured, the judge's drivers only where the reading agrees with them.
 */
import { contributions, FEATURES, type JudgeModel } from "./judge-model.js";
import { claimedKind, type TaskReading } from "./read-task.js";
import { isSevere } from "./task-structure.js";

/** The structural features that moved the consensus most, in words, for the product persona's summary. */
/** A feature's words, or words made from the reading ("it names “crashes”"); "" where nothing is said. */
type Words = string | ((r: TaskReading) => string);

const FEATURE_WORDS: Record<string, [up: Words, down: Words]> = {
  "kind.bug": ["it is a bug report", "it is not a bug report"],
  "kind.chore": ["it is maintenance work", "it is not maintenance work"],
  "kind.docs": ["it is a documentation task", ""],
  "kind.question": ["", "it is a question rather than a request"],
  // A severe defect is said by the words that made it one: a reader took "the defect is severe" for an intermittent
  // test failure's exception as a judgement the text does not make.
  "severity.severe": [(r) => `it names “${r.structure.severityCue!}”`, ""],
  "title.version": ["the title names a version", ""],
  own_words: ["the author wrote a full description", "the description is short"],
  "evidence.steps": ["it has steps to reproduce", ""],
  "evidence.trace": ["it has error output", ""],
  "evidence.acceptance": ["it says what done looks like", ""],
  "evidence.demand": ["it gives numbers about demand", ""],
  "evidence.versions": ["it names versions", ""],
  hype: ["", "it makes claims of value without evidence"],
  "title.question": ["", "the title is a question"],
  // template_share has no words: "much of the description is template text" is a judgement of a share, and fresh
  // readers took it for false in 4 reports of 2 samples (a filled-in form, three lines of spam, one line and two links).
};

/**
 * Whether a feature's words may be said. The evidence features are the reading's own evidence (judge-model.ts), so
 * their words hold; a kind is said only where the reader is sure of it (KIND_CLAIM_BAR), like any claim of kind, and
 * a severe defect only of a report read as a bug with that severity.
 */
function sayable(name: string, up: boolean, r: TaskReading): boolean {
  const kind = claimedKind(r);
  if (name.startsWith("kind.")) {
    const said = name.slice("kind.".length);
    const saysItIs = said === "question" ? !up : up;
    return kind !== null && (saysItIs ? kind === said : kind !== said);
  }
  // Claims of value are "without evidence" only where the text gives no measured number.
  if (name === "hype") return !r.structure.measured;
  if (name === "severity.severe")
    return !up || (kind === "bug" && isSevere(r.reading.severity) && !!r.structure.severityCue);
  return true;
}

export function drivers(r: TaskReading, model: JudgeModel): string | undefined {
  const c = contributions(model, r.features);
  const ranked = c
    .map((v, i) => ({ v, name: FEATURES[i]!.name }))
    .filter((x) => Math.abs(x.v) >= 0.15 && FEATURE_WORDS[x.name]?.[x.v > 0 ? 0 : 1])
    .filter((x) => sayable(x.name, x.v > 0, r))
    .sort((a, b) => Math.abs(b.v) - Math.abs(a.v))
    .slice(0, 2);
  if (ranked.length === 0) return undefined;
  return ranked
    .map((x) => {
      const words = FEATURE_WORDS[x.name]![x.v > 0 ? 0 : 1];
      return typeof words === "function" ? words(r) : words;
    })
    .join(", and ");
}
