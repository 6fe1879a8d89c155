import type { AcceptanceAdjustment } from "../core/offline/calibration.js";
import { JUDGE_MODEL } from "../core/offline/judge-model.data.js";
import { logit, sigmoid, type JudgeModel } from "../core/offline/judge-model.js";
import { readTask } from "../core/offline/offline-scorer.js";
import {
  LEARNING,
  LEARNING_READ,
  type AdjustmentDecision,
  type ClosedIssue,
  type LearningOptions,
} from "./learning-options.js";
import { auc, clipText, drain, folds, round, type Steps } from "./learning-steps.js";

// The acceptance adjustment: completed versus not planned, read through the shipped judge's features.

interface Decided {
  x: number[];
  z0: number;
  y: number;
}

export function* prepareDecided(issues: readonly ClosedIssue[], model: JudgeModel): Steps<Decided[]> {
  const out: Decided[] = [];
  for (const i of issues) {
    const r = readTask(
      clipText(i.title, LEARNING_READ.titleChars),
      clipText(i.body, LEARNING_READ.bodyChars),
    );
    const x = r.features.map((v, j) => (v - model.mean[j]!) / model.scale[j]!);
    out.push({ x, z0: logit(model, r.features), y: i.stateReason === "completed" ? 1 : 0 });
    yield;
  }
  return out;
}

/**
 * An intercept and a change of each weight of the acceptance model, by gradient descent on the log-loss with
 * an L2 penalty on the weight changes (the shipped weights are the prior). Deterministic (full batch).
 */
export function fitAcceptanceAdjustment(
  data: readonly Decided[],
  lambda: number,
  features: number,
): AcceptanceAdjustment {
  return drain(fitAcceptanceSteps(data, lambda, features));
}

function* fitAcceptanceSteps(
  data: readonly Decided[],
  lambda: number,
  features: number,
): Steps<AcceptanceAdjustment> {
  let a = 0;
  const d = new Array<number>(features).fill(0);
  const n = data.length;
  for (let iter = 0; iter < 300; iter++) {
    let ga = 0.01 * a;
    const gd = d.map((v) => (lambda * v) / n);
    for (const e of data) {
      let z = e.z0 + a;
      for (let j = 0; j < features; j++) z += d[j]! * e.x[j]!;
      const g = (sigmoid(z) - e.y) / n;
      ga += g;
      for (let j = 0; j < features; j++) gd[j]! += g * e.x[j]!;
    }
    const step = 1;
    a -= step * ga;
    for (let j = 0; j < features; j++) d[j]! -= step * gd[j]!;
    yield;
  }
  return { intercept: Number(a.toFixed(6)), weights: d.map((v) => Number(v.toFixed(6))) };
}

function acceptanceLogits(data: readonly Decided[], adj?: AcceptanceAdjustment): number[] {
  return data.map((e) => {
    let z = e.z0;
    if (adj) {
      z += adj.intercept;
      for (let j = 0; j < adj.weights.length; j++) z += adj.weights[j]! * e.x[j]!;
    }
    return z;
  });
}

function logLoss(z: readonly number[], y: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < z.length; i++) {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, sigmoid(z[i]!)));
    s -= y[i] ? Math.log(p) : Math.log(1 - p);
  }
  return s / z.length;
}

/** The acceptance adjustment for one repository's decided closed issues, if it beats the shipped model. */
export function learnAcceptance(
  issues: readonly ClosedIssue[],
  o: LearningOptions = LEARNING,
  model: JudgeModel = JUDGE_MODEL,
): { adjustment?: AcceptanceAdjustment; decision: AdjustmentDecision } {
  return drain(learnAcceptanceSteps(issues, o, model));
}

export function* learnAcceptanceSteps(
  issues: readonly ClosedIssue[],
  o: LearningOptions,
  model: JudgeModel,
): Steps<{ adjustment?: AcceptanceAdjustment; decision: AdjustmentDecision }> {
  const decided = issues.filter((i) => i.stateReason === "completed" || i.stateReason === "not_planned");
  const done = decided.filter((i) => i.stateReason === "completed").length;
  if (decided.length < o.minDecided || done < 5 || decided.length - done < 5)
    return {
      decision: {
        kept: false,
        reason: `${decided.length} closed issues marked completed or not planned (${done} completed); ${o.minDecided} needed, 5 of each`,
      },
    };
  // Each issue is read once; the folds and the final fit share what was read (it was read six times).
  const data = yield* prepareDecided(decided, model);
  const items = decided.map((i, n) => ({ number: i.number, data: data[n]! }));
  const y: number[] = [];
  const zBefore: number[] = [];
  const zAfter: number[] = [];
  for (const { fit, held } of folds(items, o.folds)) {
    const heldData = held.map((i) => i.data);
    const adj = yield* fitAcceptanceSteps(
      fit.map((i) => i.data),
      o.acceptanceLambda,
      model.weights.length,
    );
    y.push(...heldData.map((d) => d.y));
    zBefore.push(...acceptanceLogits(heldData));
    zAfter.push(...acceptanceLogits(heldData, adj));
  }
  const scores = (z: number[]) => ({
    auc: auc(
      z.filter((_, i) => y[i] === 1),
      z.filter((_, i) => y[i] === 0),
    ),
    loss: logLoss(z, y),
  });
  const before = scores(zBefore);
  const after = scores(zAfter);
  // Kept when it ranks the held-out issues better (AUC); a shift of the intercept alone leaves the ranking as
  // it was and can still make the chances right, so an equal AUC with a lower log-loss also wins.
  const wins =
    after.auc > before.auc + 1e-9 || (Math.abs(after.auc - before.auc) <= 1e-9 && after.loss < before.loss);
  const decision = {
    shipped: round(before.auc),
    adjusted: round(after.auc),
  };
  if (!wins)
    return {
      decision: {
        kept: false,
        reason: `no better than the shipped model on held-out closed issues (AUC ${round(after.auc)} vs ${round(before.auc)}, log-loss ${round(after.loss)} vs ${round(before.loss)})`,
        ...decision,
      },
    };
  return {
    adjustment: yield* fitAcceptanceSteps(data, o.acceptanceLambda, model.weights.length),
    decision: { kept: true, reason: "beats the shipped model", ...decision },
  };
}
