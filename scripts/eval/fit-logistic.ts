import { FEATURES, logit, PRIOR, sigmoid, type JudgeModel } from "../../src/core/offline/judge-model.js";

/*
 * Fitting the judge's acceptance model: build-time code, kept out of the runtime core (the server only
 * reads the fitted weights in judge-model.data.ts).
 */

/**
 * L2-regularised logistic regression by Newton's method (IRLS): exact, deterministic, and quick for a few
 * hundred issues and a few dozen features. The intercept is not penalised.
 */
export function fitLogistic(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  lambda: number,
  prior: Readonly<Record<string, number>> = PRIOR,
): JudgeModel {
  const n = xs.length;
  const { mean, scale, weights, intercept } = fitWeights(
    xs,
    ys,
    lambda,
    FEATURES.map((f) => prior[f.name] ?? 0),
  );
  const model = {
    features: FEATURES.map((f) => f.name),
    mean,
    scale,
    weights,
    intercept,
    approvalLogit: 0,
    lambda,
    trainedOn: n,
  };
  model.approvalLogit = approvalBar(
    xs.map((x) => logit(model, x)),
    ys,
  );
  return model;
}

/**
 * L2-regularised logistic regression by Newton's method (IRLS) over standardised features, shrunk towards `prior`
 * (in the features' own units; zeros by default). Returns the standardisation and the weights.
 */
export function fitWeights(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  lambda: number,
  prior: readonly number[] = new Array<number>(xs[0]?.length ?? 0).fill(0),
): { mean: number[]; scale: number[]; weights: number[]; intercept: number } {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const x of xs) for (let j = 0; j < d; j++) mean[j]! += x[j]! / n;
  for (const x of xs) for (let j = 0; j < d; j++) scale[j]! += (x[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) || 1;
  const z = xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  // The prior in the standardised units the fit works in.
  const w0 = [0, ...prior.map((p, j) => p * scale[j]!)];
  const w = [...w0];
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const zi = z[i]!;
      let t = 0;
      for (let j = 0; j <= d; j++) t += w[j]! * zi[j]!;
      const p = sigmoid(t);
      const r = p - ys[i]!;
      const v = p * (1 - p);
      for (let j = 0; j <= d; j++) {
        grad[j]! += r * zi[j]!;
        const vj = v * zi[j]!;
        const row = hess[j]!;
        for (let k = j; k <= d; k++) row[k]! += vj * zi[k]!;
      }
    }
    for (let j = 1; j <= d; j++) {
      grad[j]! += lambda * (w[j]! - w0[j]!);
      hess[j]![j]! += lambda;
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) hess[j]![k] = hess[k]![j]!;
    const step = solve(hess, grad);
    let change = 0;
    for (let j = 0; j <= d; j++) {
      w[j]! -= step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-9) break;
  }
  return { mean, scale, weights: w.slice(1), intercept: w[0]! };
}

/** The share of real (not junk) training tasks whose consensus reaches the default approval bar of 7. */
export const APPROVAL_SHARE = 0.2;

/**
 * The logit above which APPROVAL_SHARE of the training tasks lie. A quantile rather than a precision
 * target: on a few hundred issues the in-sample precision curve is too noisy to aim at, while a fixed
 * share keeps approval selective and lets the cross-validation report the precision honestly.
 */
function approvalBar(zs: readonly number[], _ys: readonly number[]): number {
  const sorted = [...zs].sort((a, b) => b - a);
  return sorted[Math.max(0, Math.floor(sorted.length * APPROVAL_SHARE) - 1)] ?? 0;
}

/** Gaussian elimination with partial pivoting (the Hessian is positive definite with λ > 0). */
function solve(a: number[][], rhs: number[]): number[] {
  const n = rhs.length;
  const m = a.map((row, i) => [...row, rhs[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]! || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / pivot;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / (m[r]![r]! || 1e-12);
  }
  return x;
}
