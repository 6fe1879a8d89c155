import { fitKind } from "../../scripts/eval/fit-kind.js";
import { kindExamples } from "../../scripts/eval/kind-data.js";
import { KIND_MODEL } from "../../src/core/offline/kind-model.data.js";
import { development } from "../../scripts/eval/holdout.js";
import { describe, expect, it } from "@jest/globals";
import { FEATURES, logit } from "../../src/core/offline/judge-model.js";
import { fitLogistic } from "../../scripts/eval/fit-logistic.js";
import { JUDGE_MODEL } from "../../src/core/offline/judge-model.data.js";
import { fitJudge } from "../../scripts/eval/fit.js";
import { loadLabeled } from "../../scripts/eval/labeled-corpus.js";
import { auc, groupedFolds } from "../../scripts/eval/metrics.js";

describe("the judge's model", () => {
  it("names the features the judge reads, in order", () => {
    expect(JUDGE_MODEL.features).toEqual(FEATURES.map((f) => f.name));
    expect(JUDGE_MODEL.weights).toHaveLength(FEATURES.length);
  });

  it("learns a feature that separates the classes, and shrinks towards its prior", () => {
    const xs = Array.from({ length: 80 }, (_, i) =>
      FEATURES.map((_, j) => (j === 0 ? i % 2 : (i * 7 + j) % 3)),
    );
    const ys = xs.map((x) => x[0]!);
    const loose = fitLogistic(xs, ys, 1, {});
    const firm = fitLogistic(xs, ys, 1e6, {});
    expect(loose.weights[0]).toBeGreaterThan(1);
    expect(Math.abs(firm.weights[0]!)).toBeLessThan(0.01);
    expect(logit(loose, xs[1]!)).toBeGreaterThan(logit(loose, xs[0]!));
  });
});

describe("evaluation helpers", () => {
  it("AUC is 1 for a perfect ranking, 0.5 for ties and 0 for a reversed one", () => {
    expect(auc([3, 4], [1, 2])).toBe(1);
    expect(auc([1, 1], [1, 1])).toBe(0.5);
    expect(auc([1], [2])).toBe(0);
  });

  it("repository-grouped folds never put one repository on both sides", () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ repo: `r${i % 17}` }));
    const folds = groupedFolds(rows, 5, 3);
    const foldOf = new Map<string, number>();
    rows.forEach((r, i) => {
      expect(foldOf.get(r.repo) ?? folds[i]).toBe(folds[i]);
      foldOf.set(r.repo, folds[i]!);
    });
    expect(new Set(folds).size).toBe(5);
  });
});

const labeled = loadLabeled();
if (!labeled) console.warn("model refit test skipped: ../shared/corpus/labeled-issues.jsonl not found");
(labeled ? describe : describe.skip)("the committed model", () => {
  it("is what `npm run fit` produces from the labeled corpus (reproducible)", () => {
    const fresh = fitJudge(development(labeled!));
    expect(fresh.lambda).toBe(JUDGE_MODEL.lambda);
    expect(fresh.trainedOn).toBe(JUDGE_MODEL.trainedOn);
    fresh.weights.forEach((w, i) => expect(w).toBeCloseTo(JUDGE_MODEL.weights[i]!, 4));
    expect(fresh.approvalLogit).toBeCloseTo(JUDGE_MODEL.approvalLogit, 4);
  });
});

const nlbse = kindExamples();
(nlbse ? describe : describe.skip)("the committed kind model", () => {
  it("is what `npm run fit` produces from the NLBSE training split (reproducible), and under 2 MB", () => {
    const fresh = fitKind(nlbse!);
    expect(fresh.weights).toBe(KIND_MODEL.weights);
    expect(fresh.bias).toEqual(KIND_MODEL.bias);
    expect(fresh.scale).toBe(KIND_MODEL.scale);
    expect(KIND_MODEL.weights.length).toBeLessThan(2 * 1024 * 1024);
  });
});
if (!nlbse)
  console.log("kind model reproducibility skipped: ../shared/benchmarks/nlbse24 is not beside the clone");
