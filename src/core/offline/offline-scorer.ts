import { PERSONA_RECORDS } from "../persona-records.js";
import { PERSONAS, type PersonaId } from "../personas.js";
import type { PersonaVerdict, Scorer } from "../scorer.js";
import type { TaskInput } from "../task-request.schema.js";
import { JUDGE_MODEL } from "./judge-model.data.js";
import { logit, sigmoid, type JudgeModel } from "./judge-model.js";
import { JUNK_SENTENCE, KIND_LEANING, type Shape } from "./persona-rules.js";
import { drivers } from "./reasoning-clauses.js";
import { groundedSentences } from "./reasoning.js";
import { nothingSentence } from "./reasoning-subject.js";
import type { TaskStructure } from "./task-structure.js";
import { adjustJudgeModel, type RepositoryCalibration } from "./calibration.js";
import { readTask, type TaskReading } from "./read-task.js";

export { JUDGE_MODEL };
/** The reading lives in read-task.ts; these are re-exported for callers that import them from here. */
export { findGaps, readTask, type TaskGap, type TaskReading } from "./read-task.js";
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const clamp = (n: number) => Math.min(10, Math.max(1, Math.round(n)));

/** How far the personas' angles move them from the consensus (1: as fitted; the spread was 0.46 SD). */
const SPREAD = 1.8;
const THIN = new Set(["unfilled_template", "one_word_title", "no_content"]);

/** Where a task stands, before the personas spread around it. */
interface Consensus {
  /** Chance that maintainers accept a task of this shape, from the fitted model; null for junk. */
  p: number | null;
  center: number;
}

function consensus(r: TaskReading, model: JudgeModel): Consensus {
  const s = r.structure;
  // Junk on strong evidence (advertising, a tracker's note, a test post, a placeholder title) scores 1-2;
  // a real report that is only thin (an unfilled template, a one-word title, a title and nothing else)
  // scores 3: too little to act on, but not called junk.
  if (s.kind === "junk")
    return { p: null, center: s.junk === "advertising" ? 1 : THIN.has(s.junk!) ? 2.6 : 1.6 };
  if (s.kind === "ping") return { p: null, center: 2 };
  const z = logit(model, r.features);
  const p = sigmoid(z);
  // The consensus is monotone in the model's logit, with 7 (the default approval bar) at the fitted bar
  // where, on the training issues, about three in four tasks above it were accepted.
  let center = 1 + 9 * sigmoid(z - model.approvalLogit + Math.LN2);
  // Defences that the labeled set is too small to fit (it has almost no such issues): fixed penalties.
  const a = r.analysis;
  if (a.injection) center -= 2;
  if (a.stuffing) center = Math.min(center, 4);
  if (s.debt === "adds") center -= 1;
  if (s.bulk) center -= 1;
  return { p, center };
}

/**
 * The kind each persona weighs: the reader's (a trained model over the whole text) where it names bug,
 * feature or question, the title's own tag for docs, chore and refactor work, and the structure's junk
 * and ping findings.
 */
function kindOf(r: TaskReading): TaskStructure["kind"] {
  const s = r.structure;
  if (s.kind === "junk" || s.kind === "ping") return s.kind;
  // The model knows bug, feature and question; docs, chore and refactor work is read from the title.
  if (s.kind === "docs" || s.kind === "chore" || s.kind === "refactor") return s.kind;
  const k = r.reading.kind;
  return k === "junk" ? s.kind : k;
}

function shapeOf(r: TaskReading): Shape {
  const s = r.structure;
  const kind = kindOf(r);
  if (kind === "bug" && s.severity) return `bug.${s.severity}`;
  if (kind === "docs" && s.severity === "cosmetic") return "bug.cosmetic";
  if (kind === "refactor" && s.debt) return `refactor.${s.debt}`;
  return kind;
}

/** Each persona's weights of evidence found or missing (its record's), listed once rather than for every task. */
const EVIDENCE_WEIGHTS = Object.fromEntries(
  PERSONAS.map((p) => [p.id, Object.entries(PERSONA_RECORDS[p.id].evidence)]),
) as unknown as Record<PersonaId, readonly [string, number][]>;

/** Each persona's leaning for this task: its kind, the title's themes and the evidence it cares about. */
function leanings(r: TaskReading): Record<PersonaId, number> {
  const s = r.structure;
  const base = KIND_LEANING[shapeOf(r)] ?? KIND_LEANING[kindOf(r)];
  const out = {} as Record<PersonaId, number>;
  for (const { id } of PERSONAS) {
    let v = base?.[id] ?? 0;
    let theme = 0;
    for (const h of r.themes) theme += (h.concept.weights[id] ?? 0) * 0.4;
    for (const h of r.openingThemes) theme += (h.concept.weights[id] ?? 0) * 0.25;
    v += Math.max(-2.5, Math.min(2.5, theme));
    out[id] = v;
  }
  // What raises and lowers each persona, from its record: evidence found adds (at most a point), and the
  // evidence a kind of task should carry, when absent, takes away.
  const has: Record<string, boolean> = {
    steps: s.steps,
    trace: r.analysis.hasStackTrace,
    code_or_versions: s.code || s.versions,
    demand: s.demand,
    acceptance: s.acceptance,
    screenshot_or_expected: s.screenshot || s.expected,
  };
  const missing: Record<string, boolean> = {
    none_on_a_bug: s.kind === "bug" && !has.steps && !has.trace && !has.code_or_versions,
    no_acceptance_on_a_feature: s.kind === "feature" && !s.acceptance,
  };
  for (const { id } of PERSONAS) {
    let plus = 0;
    let minus = 0;
    for (const [k, v] of EVIDENCE_WEIGHTS[id]) {
      if (has[k]) plus += v;
      else if (missing[k]) minus += v;
    }
    out[id] += Math.min(1, plus) + minus;
  }
  // Re-centred: leanings spread the personas around the consensus and add nothing to it.
  const mean = PERSONAS.reduce((sum, p) => sum + out[p.id], 0) / PERSONAS.length;
  // Five experts who always agree look like one number printed five times: each angle counts fully.
  for (const { id } of PERSONAS) out[id] = (out[id] - mean) * SPREAD;
  if (s.debt === "adds") out.architect -= 2;
  if (s.bulk) out.architect -= 2;
  return out;
}

/** The acceptance estimate, said once per report (the Product Manager's), with what moved it most. */
function estimateClause(r: TaskReading, c: Consensus, model: JudgeModel): string | undefined {
  if (c.p === null) return undefined;
  const why = drivers(r, model);
  return `maintainers accept tasks like this about ${Math.round(c.p * 10)} times in 10${why ? ` (${why})` : ""}`;
}

function personaVerdict(
  r: TaskReading,
  persona: PersonaId,
  c: Consensus,
  lean: number,
  model: JudgeModel,
  grounded: Record<PersonaId, string> | undefined,
): { score: number; sentences: string[] } {
  const s = r.structure;
  const a = r.analysis;
  const sentences: string[] = [];
  if (s.kind === "junk" || s.kind === "ping" || !grounded) {
    // One persona says why there is nothing to weigh; the others say so in their own terms.
    const reason = s.kind === "ping" ? "ping" : (s.junk ?? "no_content");
    sentences.push(
      persona === "product"
        ? `${JUNK_SENTENCE[reason]}, so there is nothing to weigh.`
        : nothingSentence(r, persona, reason === "no_content"),
    );
    if (a.injection && persona === "product")
      sentences.push("An instruction aimed at the scorer was found in the text; it was ignored.");
    return { score: clamp(c.center), sentences };
  }
  sentences.push(grounded[persona]);
  // Notes about the text itself, each said by one persona.
  if (a.injection && persona === "product")
    sentences.push(
      "An instruction aimed at the scorer was found in the text; it was ignored and counts against the task.",
    );
  if (a.stuffing && persona === "marketing")
    sentences.push("The text repeats or piles up keywords; repetition earns no credit.");
  if (s.bulk && persona === "architect")
    sentences.push(
      "It asks for generated or bulk content, which is cheap to produce and costly to keep correct.",
    );
  if (s.hype > 0 && !s.measured && persona === "revenue")
    sentences.push("Claims of value without numbers behind them earn nothing.");
  if (s.outOfScope && persona === "product")
    sentences.push("What its out-of-scope list names is not counted as part of the task.");
  // Said only where the prose is another language in the main: not English with a few foreign names, and not
  // a table of API names whose only non-English letters are a few CJK font names (foreignLatin reads those).
  const foreign = (a.nonLatinShare > 0.5 && !a.englishProse) || (a.foreignLatin && a.nonLatinShare < 0.005);
  if (foreign && persona === "ux")
    sentences.push(
      "Much of the text is in a language the offline judge reads only partly; its structure (steps, code, numbers, length) still counts.",
    );
  return { score: clamp(c.center + lean), sentences };
}

/** The five persona scores for a task, in PERSONAS order (what `npm run eval` measures). */
export function scorePersonas(task: string, description: string, model: JudgeModel = JUDGE_MODEL): number[] {
  return scoreOffline({ task, description }, model).map((v) => v.score);
}

/**
 * The embedded judge: deterministic, no network, no key. It reads the task's structure (kind, severity,
 * template, evidence), a fitted model turns that into a consensus, and each persona leans from it by its
 * own angle, saying what it found in the task's own terms.
 */
export function scoreOffline(
  input: TaskInput,
  model: JudgeModel = JUDGE_MODEL,
  calibration?: RepositoryCalibration,
): PersonaVerdict[] {
  const r = readTask(input.task, input.description, calibration);
  model = adjustJudgeModel(model, calibration?.acceptance);
  const c = consensus(r, model);
  const lean = leanings(r);
  const grounded =
    r.structure.kind === "junk" || r.structure.kind === "ping"
      ? undefined
      : groundedSentences(r, estimateClause(r, c, model));
  return PERSONAS.map((p) => {
    const { score, sentences } = personaVerdict(
      r,
      p.id,
      c,
      r.structure.kind === "junk" ? 0 : lean[p.id],
      model,
      grounded,
    );
    return {
      persona: p.id,
      score,
      reasoning: capitalise(sentences.slice(0, 5).join(" ")),
      source: "offline",
    };
  });
}

export const offlineScorer: Scorer = {
  name: "offline",
  async score(input, options) {
    return scoreOffline(input, JUDGE_MODEL, options?.calibration);
  },
};
