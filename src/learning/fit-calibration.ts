/**
 * Learning from a repository's own closed issues: a per-repository adjustment of the shipped kind model (from
 * the labels its maintainers chose) and of the acceptance model (completed versus not planned), each shrunk
 * towards the shipped model and kept only where it beats it on the repository's own held-out closed issues.
 * Deterministic: the same issues give the same adjustment on every machine. Runs in the service (a product
 * feature), not in the pure core, which only applies the result.
 */
import {
  encodeKindAdjustment,
  kindAdjustmentLogits,
  type AcceptanceAdjustment,
  type KindAdjustment,
  type RepositoryCalibration,
} from "../core/offline/calibration.js";
import { JUDGE_MODEL } from "../core/offline/judge-model.data.js";
import { logit, sigmoid, type JudgeModel } from "../core/offline/judge-model.js";
import { KIND_MODEL } from "../core/offline/kind-model.data.js";
import {
  KIND_CLASSES,
  kindFeatures,
  kindLogits,
  kindModelId,
  softmax,
  type KindModel,
  type ModelKind,
} from "../core/offline/kind-model.js";
import { readTask } from "../core/offline/offline-scorer.js";
import { kindOfLabel, kindOfLabels } from "./label-kinds.js";

/** One closed issue as learning reads it. */
export interface ClosedIssue {
  number: number;
  title: string;
  body: string;
  labels: readonly string[];
  /** GitHub's `state_reason`: "completed", "not_planned", "duplicate", "reopened" or null. */
  stateReason: string | null;
}

export interface LearningOptions {
  /** Labelled closed issues needed before a kind adjustment is tried (and at least two kinds with 5 each). */
  minKindExamples: number;
  /** Decided closed issues (completed or not planned) needed before an acceptance adjustment is tried. */
  minDecided: number;
  /** L2 strength pulling the kind adjustment back to the shipped model (per update, as the shipped fit). */
  kindLambda: number;
  kindEpochs: number;
  kindRate: number;
  /** L2 strength on the acceptance adjustment's weight changes (the intercept is barely held). */
  acceptanceLambda: number;
  /**
   * Folds of the closed issues for deciding whether an adjustment beats the shipped model: each fold is held
   * out in turn (an adjustment fitted on the others reads it), and the pooled held-out readings are compared.
   */
  folds: number;
}

/** Chosen by cross-validation on the NLBSE'24 training split (`npm run eval:learning -- --choose`). */
export const LEARNING: LearningOptions = {
  minKindExamples: 30,
  minDecided: 30,
  kindLambda: 1e-3,
  kindEpochs: 12,
  kindRate: 0.5,
  acceptanceLambda: 10,
  folds: 5,
};

/** What one learning run found: the calibration to use, and the figures behind each decision. */
export interface LearningResult {
  calibration: RepositoryCalibration;
  /** The repository's own label name for each kind (the one its closed issues carry most), for kind labels. */
  labelNames: Partial<Record<ModelKind, string>>;
  labelled: number;
  decided: number;
  kind: AdjustmentDecision;
  acceptance: AdjustmentDecision;
}

export interface AdjustmentDecision {
  kept: boolean;
  /** Why not, in words a maintainer reads ("12 labelled closed issues; 30 needed"). */
  reason: string;
  /** Held-out figure of the shipped model and of the adjustment (macro-F1 for kind, AUC for acceptance). */
  shipped?: number;
  adjusted?: number;
}

export interface KindExample {
  title: string;
  body: string;
  label: ModelKind;
}

/** Macro-F1 over the kinds that occur in the truth or the predictions. */
export function macroF1(truth: readonly ModelKind[], predicted: readonly ModelKind[]): number {
  const f1s: number[] = [];
  for (const k of KIND_CLASSES) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < truth.length; i++) {
      if (predicted[i] === k && truth[i] === k) tp++;
      else if (predicted[i] === k) fp++;
      else if (truth[i] === k) fn++;
    }
    if (tp + fp + fn === 0) continue;
    f1s.push(tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn));
  }
  return f1s.length ? f1s.reduce((a, b) => a + b, 0) / f1s.length : 0;
}

/** AUC of scores for positives versus negatives (ties count half). */
export function auc(pos: readonly number[], neg: readonly number[]): number {
  if (!pos.length || !neg.length) return NaN;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

interface Prepared {
  f: Map<number, number>;
  x: [number, number][];
  z0: number[];
  y: number;
}

function prepareKind(model: KindModel, examples: readonly KindExample[]): Prepared[] {
  return examples.map((e) => {
    const f = kindFeatures(e.title, e.body, model.buckets);
    return { f, x: [...f], z0: kindLogits(model, f), y: KIND_CLASSES.indexOf(e.label) };
  });
}

/** The kind each prepared issue is read as, with or without an adjustment. */
function predictPrepared(
  data: readonly Prepared[],
  model: KindModel,
  adjustment?: KindAdjustment,
): ModelKind[] {
  return data.map((d) => {
    const z = d.z0.slice();
    if (adjustment) {
      const a = kindAdjustmentLogits(model, adjustment, d.f);
      for (let c = 0; c < z.length; c++) z[c]! += a[c]!;
    }
    return KIND_CLASSES[argmax(z)]!;
  });
}

const argmax = (v: readonly number[]) => v.reduce((b, x, i) => (x > v[b]! ? i : b), 0);

/** A seeded shuffle (mulberry32): the same order on every machine. */
function shuffled(n: number, seed: number): number[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * Continue training the shipped model on the repository's labelled issues, with an L2 penalty on the
 * difference from the shipped weights: only the buckets its issues touch move, and only as far as they give
 * reason to. Classes are weighted alike (a repository's labels are often mostly bugs).
 */
export function fitKindAdjustment(
  examples: readonly KindExample[],
  o: Pick<LearningOptions, "kindLambda" | "kindEpochs" | "kindRate"> = LEARNING,
  model: KindModel = KIND_MODEL,
): KindAdjustment {
  return fitPreparedKind(prepareKind(model, examples), o, model);
}

function fitPreparedKind(
  data: readonly Prepared[],
  o: Pick<LearningOptions, "kindLambda" | "kindEpochs" | "kindRate">,
  model: KindModel,
): KindAdjustment {
  const C = KIND_CLASSES.length;
  const counts = new Array<number>(C).fill(0);
  for (const d of data) counts[d.y]!++;
  const present = counts.filter((c) => c > 0).length;
  const classWeight = counts.map((c) => (c ? Math.min(3, data.length / present / c) : 0));
  const delta = new Map<number, number>();
  const bias = new Array<number>(C).fill(0);
  for (let epoch = 0; epoch < o.kindEpochs; epoch++) {
    const rate = o.kindRate / (1 + epoch * 0.3);
    for (const i of shuffled(data.length, 7 + epoch)) {
      const d = data[i]!;
      const z = d.z0.slice();
      for (let c = 0; c < C; c++) {
        let s = bias[c]!;
        const base = c * model.buckets;
        for (const [k, v] of d.x) s += (delta.get(base + k) ?? 0) * v;
        z[c]! += s;
      }
      const p = softmax(z);
      for (let c = 0; c < C; c++) {
        const g = (p[c]! - (d.y === c ? 1 : 0)) * classWeight[d.y]!;
        const base = c * model.buckets;
        for (const [k, v] of d.x) {
          const key = base + k;
          delta.set(key, (delta.get(key) ?? 0) * (1 - rate * o.kindLambda) - rate * g * v);
        }
        bias[c] = bias[c]! - rate * g * 0.1;
      }
    }
  }
  const entries = [...delta].filter(([, v]) => Math.abs(v) >= 1e-3).sort((a, b) => a[0] - b[0]);
  return encodeKindAdjustment(kindModelId(model), bias, entries);
}

/** The kind each issue is read as, with or without an adjustment. */
export function predictKinds(
  examples: readonly { title: string; body: string }[],
  adjustment?: KindAdjustment,
  model: KindModel = KIND_MODEL,
): ModelKind[] {
  return examples.map((e) => {
    const f = kindFeatures(e.title, e.body, model.buckets);
    const z = kindLogits(model, f);
    const d = adjustment ? kindAdjustmentLogits(model, adjustment, f) : undefined;
    if (d) for (let c = 0; c < z.length; c++) z[c]! += d[c]!;
    return KIND_CLASSES[argmax(z)]!;
  });
}

interface Decided {
  x: number[];
  z0: number;
  y: number;
}

function prepareDecided(issues: readonly ClosedIssue[], model: JudgeModel): Decided[] {
  return issues.map((i) => {
    const r = readTask(i.title, i.body);
    const x = r.features.map((v, j) => (v - model.mean[j]!) / model.scale[j]!);
    return { x, z0: logit(model, r.features), y: i.stateReason === "completed" ? 1 : 0 };
  });
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

/**
 * The folds: issue i (by number) is in fold i mod k, so each fold spreads over the repository's history and
 * the split is the same on every run.
 */
function folds<T extends { number: number }>(items: readonly T[], k: number): { fit: T[]; held: T[] }[] {
  const sorted = [...items].sort((a, b) => a.number - b.number);
  return Array.from({ length: k }, (_, f) => ({
    fit: sorted.filter((_, i) => i % k !== f),
    held: sorted.filter((_, i) => i % k === f),
  }));
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The kind adjustment for one repository's labelled closed issues, if it beats the shipped model. */
export function learnKind(
  issues: readonly (ClosedIssue & { kind: ModelKind })[],
  o: LearningOptions = LEARNING,
  model: KindModel = KIND_MODEL,
): { adjustment?: KindAdjustment; decision: AdjustmentDecision } {
  const counts = KIND_CLASSES.map((k) => issues.filter((i) => i.kind === k).length);
  if (issues.length < o.minKindExamples)
    return {
      decision: {
        kept: false,
        reason: `${issues.length} closed issues with a kind label; ${o.minKindExamples} needed`,
      },
    };
  if (counts.filter((c) => c >= 5).length < 2)
    return { decision: { kept: false, reason: "the labels name fewer than two kinds (5 issues each)" } };
  // Each issue is read once; the folds and the final fit share what was read (it was read seven times).
  const prepared = prepareKind(
    model,
    issues.map((i) => ({ title: i.title, body: i.body, label: i.kind })),
  );
  const items = issues.map((i, n) => ({ number: i.number, kind: i.kind, data: prepared[n]! }));
  const truth: ModelKind[] = [];
  const before: ModelKind[] = [];
  const after: ModelKind[] = [];
  for (const { fit, held } of folds(items, o.folds)) {
    const adjustment = fitPreparedKind(
      fit.map((i) => i.data),
      o,
      model,
    );
    const heldData = held.map((i) => i.data);
    truth.push(...held.map((i) => i.kind));
    before.push(...predictPrepared(heldData, model));
    after.push(...predictPrepared(heldData, model, adjustment));
  }
  const shipped = macroF1(truth, before);
  const adjusted = macroF1(truth, after);
  if (!(adjusted > shipped))
    return {
      decision: {
        kept: false,
        reason: `no better than the shipped model on held-out closed issues (macro-F1 ${round(adjusted)} vs ${round(shipped)})`,
        shipped: round(shipped),
        adjusted: round(adjusted),
      },
    };
  return {
    adjustment: fitPreparedKind(prepared, o, model),
    decision: {
      kept: true,
      reason: "beats the shipped model",
      shipped: round(shipped),
      adjusted: round(adjusted),
    },
  };
}

/** The acceptance adjustment for one repository's decided closed issues, if it beats the shipped model. */
export function learnAcceptance(
  issues: readonly ClosedIssue[],
  o: LearningOptions = LEARNING,
  model: JudgeModel = JUDGE_MODEL,
): { adjustment?: AcceptanceAdjustment; decision: AdjustmentDecision } {
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
  const data = prepareDecided(decided, model);
  const items = decided.map((i, n) => ({ number: i.number, data: data[n]! }));
  const y: number[] = [];
  const zBefore: number[] = [];
  const zAfter: number[] = [];
  for (const { fit, held } of folds(items, o.folds)) {
    const heldData = held.map((i) => i.data);
    const adj = fitAcceptanceAdjustment(
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
    adjustment: fitAcceptanceAdjustment(data, o.acceptanceLambda, model.weights.length),
    decision: { kept: true, reason: "beats the shipped model", ...decision },
  };
}

/**
 * The label a repository's maintainers use for each kind: of the names that read as that kind, the one on the
 * most closed issues (ties: the first in alphabetical order, so that a re-run gives the same name).
 */
export function ownLabelNames(issues: readonly ClosedIssue[]): Partial<Record<ModelKind, string>> {
  const counts = new Map<string, { kind: ModelKind; n: number }>();
  for (const issue of issues)
    for (const name of new Set(issue.labels)) {
      const kind = kindOfLabel(name);
      if (!kind) continue;
      const c = counts.get(name) ?? { kind, n: 0 };
      c.n++;
      counts.set(name, c);
    }
  const best: Partial<Record<ModelKind, { name: string; n: number }>> = {};
  for (const [name, { kind, n }] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const current = best[kind];
    if (!current || n > current.n) best[kind] = { name, n };
  }
  const out: Partial<Record<ModelKind, string>> = {};
  for (const [kind, b] of Object.entries(best)) out[kind as ModelKind] = b.name;
  return out;
}

/** Learn both adjustments from a repository's closed issues (at most the last 1,000, pull requests left out). */
export function learnCalibration(
  repository: string,
  issues: readonly ClosedIssue[],
  o: LearningOptions = LEARNING,
): LearningResult {
  const labelled = issues.flatMap((i) => {
    const kind = kindOfLabels(i.labels);
    return kind ? [{ ...i, kind }] : [];
  });
  const kind = learnKind(labelled, o);
  const acceptance = learnAcceptance(issues, o);
  const decided = issues.filter(
    (i) => i.stateReason === "completed" || i.stateReason === "not_planned",
  ).length;
  return {
    labelNames: ownLabelNames(issues),
    calibration: {
      repository,
      closedIssues: issues.length,
      ...(kind.adjustment ? { kind: kind.adjustment } : {}),
      ...(acceptance.adjustment ? { acceptance: acceptance.adjustment } : {}),
    },
    labelled: labelled.length,
    decided,
    kind: kind.decision,
    acceptance: acceptance.decision,
  };
}
