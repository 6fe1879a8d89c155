/**
 * Learning from a repository's own closed issues: a per-repository adjustment of the shipped kind model (from
 * the labels its maintainers chose) and of the acceptance model (completed versus not planned), each shrunk
 * towards the shipped model and kept only where it beats it on the repository's own held-out closed issues.
 * Deterministic: the same issues give the same adjustment on every machine. Runs in the service (a product
 * feature), not in the pure core, which only applies the result.
 *
 * The service runs it in slices on its own thread (`learnCalibrationSliced`, issue 33): every part of the fit
 * is a generator that stops after each issue read, each example of an epoch, each iteration of the acceptance
 * fit, and the driver gives the event loop a turn (`setImmediate`) once a slice has run `SLICE_MS`. The
 * synchronous `learnCalibration` runs the same generators through at once, so both give the same result.
 * Slices and not a `worker_threads` Worker: a worker needs a JavaScript file to load, which exists under
 * `npm start` (build/) but not under tsx or jest (TypeScript sources, and on Node 20 a worker cannot load
 * them without a loader of its own) nor in the benchmark's bundle; slices work the same in all of them, need
 * no copy of the issues into another heap, and a worker would still compete for the same cores.
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
import { TASK_MAX_CHARS } from "../core/task-request.schema.js";
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

/**
 * How much of each closed issue learning reads (issue 33: 1,000 bodies of 65,000 characters took 16 s). The
 * title to the scorer's own bound (GitHub's limit for a title); the body to 16 KiB, which holds the whole of
 * nearly every real issue (and far more than the 3,000 characters of prose the kind model reads), while a
 * pasted log past it no longer costs a reading of the whole of it. In UTF-16 code units.
 */
export const LEARNING_READ = { titleChars: TASK_MAX_CHARS, bodyChars: 16_384 } as const;

/** The text cut to `max` code units, never between the two halves of a surrogate pair. */
function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A part of the fit that stops (yields) between small pieces of work, so that its caller can give the event
 * loop a turn; `drain` runs it through at once.
 */
type Steps<T> = Generator<void, T, undefined>;

function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How long the sliced fit runs before it lets the event loop take a turn. */
export const SLICE_MS = 10;

/** Runs `steps` in slices of `sliceMs`, with a turn of the event loop (`setImmediate`) between them. */
async function runSliced<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
  let until = performance.now() + sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() >= until) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      until = performance.now() + sliceMs;
    }
  }
}

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

function* prepareKind(model: KindModel, examples: readonly KindExample[]): Steps<Prepared[]> {
  const out: Prepared[] = [];
  for (const e of examples) {
    const f = kindFeatures(
      clipText(e.title, LEARNING_READ.titleChars),
      clipText(e.body, LEARNING_READ.bodyChars),
      model.buckets,
    );
    out.push({ f, x: [...f], z0: kindLogits(model, f), y: KIND_CLASSES.indexOf(e.label) });
    yield;
  }
  return out;
}

/** The kind each prepared issue is read as, with or without an adjustment. */
function* predictPrepared(
  data: readonly Prepared[],
  model: KindModel,
  adjustment?: KindAdjustment,
): Steps<ModelKind[]> {
  const out: ModelKind[] = [];
  for (const d of data) {
    const z = d.z0.slice();
    if (adjustment) {
      const a = kindAdjustmentLogits(model, adjustment, d.f);
      for (let c = 0; c < z.length; c++) z[c]! += a[c]!;
    }
    out.push(KIND_CLASSES[argmax(z)]!);
    yield;
  }
  return out;
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
  return drain(fitPreparedKind(drain(prepareKind(model, examples)), o, model));
}

function* fitPreparedKind(
  data: readonly Prepared[],
  o: Pick<LearningOptions, "kindLambda" | "kindEpochs" | "kindRate">,
  model: KindModel,
): Steps<KindAdjustment> {
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
      yield;
    }
  }
  // What moved, in bucket order, taken in pieces (a thousand issues move hundreds of thousands of buckets);
  // the keys are distinct and below 2^32, so a typed array's numeric sort gives the order of a sort by key.
  const moved: number[] = [];
  let seen = 0;
  for (const [key, v] of delta) {
    if (Math.abs(v) >= 1e-3) moved.push(key);
    if (++seen % 4096 === 0) yield;
  }
  const keys = Uint32Array.from(moved).sort();
  yield;
  const entries: [number, number][] = [];
  for (let i = 0; i < keys.length; i++) {
    entries.push([keys[i]!, delta.get(keys[i]!)!]);
    if (i % 4096 === 4095) yield;
  }
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

function* prepareDecided(issues: readonly ClosedIssue[], model: JudgeModel): Steps<Decided[]> {
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
  return drain(learnKindSteps(issues, o, model));
}

function* learnKindSteps(
  issues: readonly (ClosedIssue & { kind: ModelKind })[],
  o: LearningOptions,
  model: KindModel,
): Steps<{ adjustment?: KindAdjustment; decision: AdjustmentDecision }> {
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
  const prepared = yield* prepareKind(
    model,
    issues.map((i) => ({ title: i.title, body: i.body, label: i.kind })),
  );
  const items = issues.map((i, n) => ({ number: i.number, kind: i.kind, data: prepared[n]! }));
  const truth: ModelKind[] = [];
  const before: ModelKind[] = [];
  const after: ModelKind[] = [];
  for (const { fit, held } of folds(items, o.folds)) {
    const adjustment = yield* fitPreparedKind(
      fit.map((i) => i.data),
      o,
      model,
    );
    const heldData = held.map((i) => i.data);
    truth.push(...held.map((i) => i.kind));
    before.push(...(yield* predictPrepared(heldData, model)));
    after.push(...(yield* predictPrepared(heldData, model, adjustment)));
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
    adjustment: yield* fitPreparedKind(prepared, o, model),
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
  return drain(learnAcceptanceSteps(issues, o, model));
}

function* learnAcceptanceSteps(
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

/**
 * Learn both adjustments from a repository's closed issues (at most the last 1,000, pull requests left out),
 * at once. The service uses `learnCalibrationSliced`, which learns the same without holding its thread.
 */
export function learnCalibration(
  repository: string,
  issues: readonly ClosedIssue[],
  o: LearningOptions = LEARNING,
): LearningResult {
  return drain(learnCalibrationSteps(repository, issues, o));
}

/**
 * `learnCalibration` in slices of `sliceMs` with a turn of the event loop between them (issue 33), for the
 * server: its requests, webhooks and timers go on while it learns. The same result as `learnCalibration`.
 */
export function learnCalibrationSliced(
  repository: string,
  issues: readonly ClosedIssue[],
  o: LearningOptions = LEARNING,
  sliceMs: number = SLICE_MS,
): Promise<LearningResult> {
  return runSliced(learnCalibrationSteps(repository, issues, o), sliceMs);
}

function* learnCalibrationSteps(
  repository: string,
  issues: readonly ClosedIssue[],
  o: LearningOptions,
): Steps<LearningResult> {
  const labelled = issues.flatMap((i) => {
    const kind = kindOfLabels(i.labels);
    return kind ? [{ ...i, kind }] : [];
  });
  const kind = yield* learnKindSteps(labelled, o, KIND_MODEL);
  const acceptance = yield* learnAcceptanceSteps(issues, o, JUDGE_MODEL);
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
