import { logit, type JudgeModel } from "../../src/core/offline/judge-model.js";
import { fitLogistic } from "./fit-logistic.js";
import { readTask } from "../../src/core/offline/offline-scorer.js";
import { decided, type LabeledIssue } from "./labeled-corpus.js";
import { auc, groupedFolds } from "./metrics.js";

/** The regularisation strengths tried; the inner cross-validation picks one. */
export const LAMBDAS = [1, 3, 10, 30, 100, 300, 1000];

interface Example {
  repo: string;
  x: number[];
  y: number;
}

/** Issues the model learns from: decided ones that the rules do not already settle (junk, pings). */
export function examples(rows: readonly LabeledIssue[]): Example[] {
  return decided(rows).flatMap((r) => {
    const reading = readTask(r.task, r.description ?? "");
    if (reading.structure.kind === "junk" || reading.structure.kind === "ping") return [];
    return [{ repo: r.repo, x: reading.features, y: r.outcome === "implemented" ? 1 : 0 }];
  });
}

/** Mean AUC of a λ over repository-grouped folds of the given examples. */
export function cvAuc(xs: readonly Example[], lambda: number, folds = 5, seed = 1): number {
  const fold = groupedFolds(xs, folds, seed);
  const scores: { y: number; s: number }[] = [];
  for (let f = 0; f < folds; f++) {
    const train = xs.filter((_, i) => fold[i] !== f);
    const model = fitLogistic(
      train.map((e) => e.x),
      train.map((e) => e.y),
      lambda,
    );
    xs.forEach((e, i) => {
      if (fold[i] === f) scores.push({ y: e.y, s: logit(model, e.x) });
    });
  }
  return auc(
    scores.filter((s) => s.y === 1).map((s) => s.s),
    scores.filter((s) => s.y === 0).map((s) => s.s),
  );
}

/** Fit the judge on these issues, choosing λ by repository-grouped cross-validation inside them. */
export function fitJudge(rows: readonly LabeledIssue[]): JudgeModel {
  const xs = examples(rows);
  // The strongest shrinkage within 0.005 of the best grouped-CV AUC, as elsewhere in this project (the kind
  // model's size, learning's λ): the simplest model the data cannot tell from the best.
  const aucs = LAMBDAS.map((lambda) => cvAuc(xs, lambda));
  const bestAuc = Math.max(...aucs);
  let best = LAMBDAS[0]!;
  LAMBDAS.forEach((lambda, i) => {
    if (aucs[i]! >= bestAuc - 0.005) best = lambda;
  });
  return fitLogistic(
    xs.map((e) => e.x),
    xs.map((e) => e.y),
    best,
  );
}
