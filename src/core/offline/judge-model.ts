import type { Reading } from "../reading.schema.js";
import type { TaskAnalysis } from "./analyze-task.js";
import { isSevere, type TaskStructure } from "./task-structure.js";

/**
 * The judge's numbers: a logistic model over structural features, giving the chance that maintainers
 * accept the task. Fitted by `npm run fit` (scripts/fit-judge.ts) on the labeled corpus, with
 * repository-grouped cross-validation choosing the regularisation; the result is committed as data in
 * judge-model.data.ts. Nothing here is tuned by hand.
 */
export interface JudgeModel {
  /** Feature names, in the order of `weights`; a model whose names differ from FEATURES is refused. */
  features: readonly string[];
  /** Standardisation learned on the training issues. */
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  intercept: number;
  /** The logit at which the consensus is 7 (the default approval bar), fitted on the training issues. */
  approvalLogit: number;
  /** L2 strength used; issues it was fitted on. For the record. */
  lambda: number;
  trainedOn: number;
}

const log1p = Math.log1p;
const b = (x: boolean) => (x ? 1 : 0);

/** What a feature is read from: the structure, the analysis, and the reading's evidence (what the report shows). */
type Read = (s: TaskStructure, a: TaskAnalysis, found: ReadonlySet<string>) => number;

/**
 * The features, each with how it is read from the task. Kinds are relative to a feature request. The evidence
 * features are the reading's evidence, the quotes the report shows, so what moved the score is what the user reads.
 */
export const FEATURES: readonly { name: string; read: Read }[] = [
  { name: "kind.bug", read: (s) => b(s.kind === "bug") },
  { name: "kind.refactor", read: (s) => b(s.kind === "refactor") },
  { name: "kind.docs", read: (s) => b(s.kind === "docs") },
  { name: "kind.chore", read: (s) => b(s.kind === "chore") },
  { name: "kind.question", read: (s) => b(s.kind === "question") },
  {
    name: "severity.severe",
    read: (s) => b(isSevere(s.severity)),
  },
  { name: "severity.wrong_result", read: (s) => b(s.severity === "wrong_result") },
  { name: "severity.cosmetic", read: (s) => b(s.severity === "cosmetic") },
  { name: "title.tag", read: (s) => b(s.titleTag) },
  { name: "title.version", read: (s) => b(s.titleVersion) },
  { name: "title.question", read: (s) => b(s.titleQuestion) },
  { name: "title.words", read: (s) => log1p(s.titleWords) },
  { name: "title.chars", read: (s) => log1p(s.titleChars) },
  { name: "title.imperative", read: (s) => b(s.titleImperative) },
  { name: "user_request", read: (s) => b(s.userRequest) },
  { name: "questions", read: (s) => log1p(s.questions) },
  { name: "own_words", read: (s) => log1p(s.ownWords) },
  { name: "template_share", read: (s) => s.templateShare },
  { name: "evidence.steps", read: (_s, _a, f) => b(f.has("steps")) },
  { name: "evidence.trace", read: (_s, _a, f) => b(f.has("trace")) },
  { name: "evidence.code", read: (_s, _a, f) => b(f.has("code")) },
  { name: "evidence.versions", read: (_s, _a, f) => b(f.has("versions")) },
  { name: "evidence.demand", read: (_s, _a, f) => b(f.has("demand")) },
  { name: "evidence.acceptance", read: (_s, _a, f) => b(f.has("acceptance")) },
  { name: "evidence.expected", read: (_s, _a, f) => b(f.has("expected_actual")) },
  { name: "evidence.screenshot", read: (_s, _a, f) => b(f.has("screenshot")) },
  { name: "links", read: (s) => log1p(s.links) },
  { name: "hype", read: (s) => b(s.hype > 0) },
  { name: "language.partial", read: (s, a) => b(a.nonLatinShare > 0.5 || a.foreignLatin) },
];

/**
 * What the published studies of bug reports and triage lead one to expect, in logit units per unit of a
 * feature (Bettenburg et al.: steps to reproduce and traces matter most to developers; severe defects are
 * fixed first; unfilled templates, questions and pings are closed). The fit shrinks towards these instead
 * of towards zero, so the data moves a weight only as far as it gives reason to; the cross-validation
 * chooses how far. Stated once, here, and reported beside the fitted weights by `npm run fit`.
 */
export const PRIOR: Readonly<Record<string, number>> = {
  "kind.bug": 0.3,
  "kind.chore": 0.3,
  "kind.question": -1,
  "severity.severe": 0.8,
  "severity.wrong_result": 0.2,
  "severity.cosmetic": -0.2,
  "evidence.steps": 0.3,
  "evidence.trace": 0.3,
  "evidence.acceptance": 0.3,
  "evidence.demand": 0.4,
  "evidence.expected": 0.2,
  template_share: -1,
  hype: -0.5,
  user_request: -0.2,
};

export function featureVector(
  s: TaskStructure,
  a: TaskAnalysis,
  reading: Pick<Reading, "evidence">,
): number[] {
  const found = new Set<string>(reading.evidence.map((e) => e.type));
  return FEATURES.map((f) => f.read(s, a, found));
}

/** Each feature's contribution to the logit, for reasoning: which structure moved the score. */
export function contributions(model: JudgeModel, x: readonly number[]): number[] {
  return x.map((v, i) => (model.weights[i]! * (v - model.mean[i]!)) / model.scale[i]!);
}

export function logit(model: JudgeModel, x: readonly number[]): number {
  let z = model.intercept;
  for (let i = 0; i < x.length; i++) z += (model.weights[i]! * (x[i]! - model.mean[i]!)) / model.scale[i]!;
  return z;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
