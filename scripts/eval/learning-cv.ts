/**
 * Choosing learning's settings by cross-validation on the NLBSE'24 training split only (the test split is
 * never read here). A repository that installs the App is one the shipped model has not seen, so each
 * repository is simulated with a base model fitted on the other four (leave-one-repository-out); its own 300
 * training issues are split into five folds: the adjustment learns from four, the fifth is scored.
 */
import { fitKindAdjustment, learnKind, predictKinds } from "../../src/learning/fit-calibration.js";
import { LEARNING, type LearningOptions } from "../../src/learning/learning-options.js";
import { macroF1 } from "../../src/learning/learning-steps.js";
import type { KindModel, ModelKind } from "../../src/core/offline/kind-model.js";
import { fitKind } from "./fit-kind.js";
import { rng } from "./metrics.js";
import { kindExamples } from "./kind-data.js";

const FOLDS = 5;

function seededOrder(n: number, seed: number): number[] {
  const random = rng(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export function chooseLearning(): void {
  const examples = kindExamples();
  if (!examples) {
    console.error("eval:learning --choose: ../shared/benchmarks/nlbse24/issues_train.csv not found.");
    process.exit(1);
  }
  const repos = [...new Set(examples.map((e) => e.repo))];
  const bases = new Map<string, KindModel>(
    repos.map((r) => [r, fitKind(examples.filter((e) => e.repo !== r))]),
  );
  const lambdas = [1e-4, 1e-3, 1e-2, 3e-2, 0.1];
  const epochs = [4, 8, 12];
  const sizes = [10, 20, 30, 45, 60, 120, 240];
  const results = new Map<string, number[]>();
  const add = (key: string, v: number) => results.set(key, [...(results.get(key) ?? []), v]);
  for (const repo of repos) {
    const own = examples.filter((e) => e.repo === repo);
    const base = bases.get(repo)!;
    for (let f = 0; f < FOLDS; f++) {
      const test = own.filter((_, i) => i % FOLDS === f);
      const train = own.filter((_, i) => i % FOLDS !== f);
      // The split's rows are grouped by label: the first n of a seeded shuffle are a fair sample of n.
      const mixed = seededOrder(train.length, 11 + f).map((i) => train[i]!);
      const truth = test.map((e) => e.label);
      add(`base`, macroF1(truth, predictKinds(test, undefined, base)));
      for (const l of lambdas)
        for (const ep of epochs) {
          const adj = fitKindAdjustment(
            train,
            { kindLambda: l, kindEpochs: ep, kindRate: LEARNING.kindRate },
            base,
          );
          add(`lambda=${l} epochs=${ep}`, macroF1(truth, predictKinds(test, adj, base)));
        }
      // How much history is enough: the chosen settings on the first n of the fold's training issues, and
      // what the keep rule (a held-out fifth of those n) decides.
      for (const n of sizes) {
        const some = mixed.slice(0, n).map((e, i) => ({
          number: i + 1,
          title: e.title,
          body: e.body,
          labels: [],
          stateReason: null,
          kind: e.label as ModelKind,
        }));
        const opts: LearningOptions = { ...LEARNING, minKindExamples: 0 };
        const learned = learnKind(some, opts, base);
        const adjusted = macroF1(truth, predictKinds(test, learned.adjustment, base));
        add(`n=${n} with keep rule`, adjusted);
        add(`n=${n} kept`, learned.adjustment ? 1 : 0);
        const always = fitKindAdjustment(
          some.map((e) => ({ title: e.title, body: e.body, label: e.kind })),
          opts,
          base,
        );
        add(`n=${n} always`, macroF1(truth, predictKinds(test, always, base)));
      }
    }
    console.error(`  ${repo} done`);
  }
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  console.log("\nLearning, chosen by CV on the NLBSE'24 training split (base: the other four repositories)");
  console.log("| setting | mean macro-F1 over 5 repositories × 5 folds (kept: share) |\n| --- | --- |");
  for (const [k, v] of results) console.log(`| ${k} | ${mean(v).toFixed(3)} |`);
}
