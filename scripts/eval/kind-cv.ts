/**
 * `npm run eval -- --choose-kind`: the cross-validation that chose the kind model's settings (KIND_FIT), on the
 * NLBSE'24 training split only (the test split is never read here). Two figures per setting:
 * - within the five repositories, as the benchmark is scored: 5 folds stratified by repository and kind, macro-F1
 *   per repository then the mean, averaged over three fold assignments;
 * - leave-one-repository-out: fitted on four repositories, scored on the fifth (a project never seen).
 * The features themselves (kind-model.ts) were chosen the same way; the figures are in docs/judge.md.
 */
import { KIND_CLASSES, predictKind, type ModelKind } from "../../src/core/offline/kind-model.js";
import { macroF1 } from "../../src/learning/learning-steps.js";
import { fitKind, KIND_FIT, type KindExample, type KindFitOptions } from "./fit-kind.js";
import { kindExamples } from "./kind-data.js";
import { rng } from "./metrics.js";

const FOLDS = 5;
const ASSIGNMENTS = [1, 2, 3];

function pick(model: ReturnType<typeof fitKind>, e: KindExample): ModelKind {
  const p = predictKind(model, e.title, e.body);
  return KIND_CLASSES[p.indexOf(Math.max(...p))]!;
}

function meanOf(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function perRepository(examples: readonly KindExample[], predicted: readonly ModelKind[]): number {
  const repos = [...new Set(examples.map((e) => e.repo))];
  return meanOf(
    repos.map((repo) => {
      const idx = examples.map((_, i) => i).filter((i) => examples[i]!.repo === repo);
      return macroF1(
        idx.map((i) => examples[i]!.label),
        idx.map((i) => predicted[i]!),
      );
    }),
  );
}

/** Fold of each example: stratified by repository and kind, in a seeded order. */
function folds(examples: readonly KindExample[], seed: number): number[] {
  const out = new Array<number>(examples.length).fill(0);
  const groups = new Map<string, number[]>();
  examples.forEach((e, i) => {
    const g = `${e.repo}|${e.label}`;
    groups.set(g, [...(groups.get(g) ?? []), i]);
  });
  const random = rng(seed * 97);
  for (const idx of groups.values()) {
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    idx.forEach((example, n) => (out[example] = n % FOLDS));
  }
  return out;
}

export function kindCrossValidation(examples: readonly KindExample[], o: KindFitOptions) {
  const within = ASSIGNMENTS.map((seed) => {
    const fold = folds(examples, seed);
    const predicted = new Array<ModelKind>(examples.length);
    for (let f = 0; f < FOLDS; f++) {
      const model = fitKind(
        examples.filter((_, i) => fold[i] !== f),
        o,
      );
      examples.forEach((e, i) => {
        if (fold[i] === f) predicted[i] = pick(model, e);
      });
    }
    return perRepository(examples, predicted);
  });
  const repos = [...new Set(examples.map((e) => e.repo))];
  const unseen = repos.map((repo) => {
    const model = fitKind(
      examples.filter((e) => e.repo !== repo),
      o,
    );
    const own = examples.filter((e) => e.repo === repo);
    return macroF1(
      own.map((e) => e.label),
      own.map((e) => pick(model, e)),
    );
  });
  return { within: meanOf(within), assignments: within, unseen: meanOf(unseen) };
}

export function chooseKind(): void {
  const examples = kindExamples();
  if (!examples) {
    console.error("eval --choose-kind: ../shared/benchmarks/nlbse24/issues_train.csv not found.");
    process.exit(1);
  }
  const settings: KindFitOptions[] = [
    KIND_FIT,
    { ...KIND_FIT, buckets: 1 << 17 },
    { ...KIND_FIT, rate: 0.5 },
    { ...KIND_FIT, l2: 1e-3 },
    { ...KIND_FIT, epochs: 20 },
  ];
  console.log("| setting | within repositories (5-fold, 3 assignments) | leave-one-repository-out |");
  console.log("| --- | --- | --- |");
  for (const o of settings) {
    const r = kindCrossValidation(examples, o);
    const name = `buckets 2^${Math.log2(o.buckets)}, rate ${o.rate}, l2 ${o.l2}, ${o.epochs} epochs`;
    console.log(
      `| ${o === KIND_FIT ? `**${name}** (shipped)` : name} | ${r.within.toFixed(3)} (${r.assignments.map((v) => v.toFixed(3)).join(", ")}) | ${r.unseen.toFixed(3)} |`,
    );
  }
}
