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
  type KindAdjustment,
} from "../core/offline/calibration.js";
import { JUDGE_MODEL } from "../core/offline/judge-model.data.js";
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
import { learnAcceptanceSteps } from "./fit-acceptance.js";
import { kindOfLabel, kindOfLabels } from "./label-kinds.js";
import {
  LEARNING,
  LEARNING_READ,
  type AdjustmentDecision,
  type ClosedIssue,
  type KindExample,
  type LearningOptions,
  type LearningResult,
} from "./learning-options.js";
import {
  argmax,
  clipText,
  drain,
  folds,
  macroF1,
  round,
  runSliced,
  shuffled,
  SLICE_MS,
  type Steps,
} from "./learning-steps.js";

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
