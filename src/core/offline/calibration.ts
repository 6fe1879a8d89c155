/**
 * A repository's own calibration: what was learned from its closed issues (src/learning), handed to the
 * reader and the offline judge as data. Pure: the core never fetches or fits it, it only applies it.
 *
 * - `kind`: a sparse adjustment of the shipped kind model (added to its logits), fitted on the closed issues
 *   whose labels name a kind, shrunk towards the shipped model (an L2 penalty on the difference).
 * - `acceptance`: an adjustment of the acceptance model's logit (an intercept and a shrunk change of each
 *   weight), fitted on the issues closed as completed versus not planned.
 *
 * Either is present only where it beat the shipped model on the repository's own held-out closed issues.
 */
import type { JudgeModel } from "./judge-model.js";

export interface KindAdjustment {
  /** The shipped kind model it was fitted against (`kindModelId`): against any other it is not applied. */
  model?: string | undefined;
  /** Added to each class's bias, in KIND_CLASSES order. */
  bias: number[];
  /** Sparse weight changes: uint32 indices (class × buckets + bucket) and their float32 values, base64. */
  index: string;
  value: string;
}

export interface AcceptanceAdjustment {
  /** Added to the acceptance model's intercept (logit units). */
  intercept: number;
  /** Added to each weight of the acceptance model, in its FEATURES order (standardised units). */
  weights: number[];
}

export interface RepositoryCalibration {
  /** "owner/name" as GitHub spells it. */
  repository: string;
  /** The closed issues it was learned from. */
  closedIssues: number;
  /** Bumped each time the repository's calibration is learned again: caches key on it. */
  version?: number | undefined;
  kind?: KindAdjustment | undefined;
  acceptance?: AcceptanceAdjustment | undefined;
}

/** Whether a calibration changes anything (an adjustment was kept): only then does a report say it was used. */
export function calibrationUsed(c: RepositoryCalibration | undefined | null): c is RepositoryCalibration {
  return !!c && (!!c.kind || !!c.acceptance);
}

/** What caches add to their key: empty when the calibration changes nothing. */
export function calibrationKey(c: RepositoryCalibration | undefined | null): string {
  return calibrationUsed(c) ? `${c.repository.toLowerCase()}@${c.version ?? 0}:${c.closedIssues}` : "";
}

const decodedKind = new WeakMap<KindAdjustment, { index: Uint32Array; value: Float32Array }>();

function bytesOf(base64: string): Uint8Array {
  // Copied so that the typed array's offset is aligned whatever Buffer pooled.
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/** The sparse weights, decoded once per adjustment. */
export function kindAdjustmentArrays(a: KindAdjustment): { index: Uint32Array; value: Float32Array } {
  let d = decodedKind.get(a);
  if (!d) {
    d = { index: new Uint32Array(bytesOf(a.index).buffer), value: new Float32Array(bytesOf(a.value).buffer) };
    decodedKind.set(a, d);
  }
  return d;
}

export function encodeKindAdjustment(
  model: string,
  bias: number[],
  entries: ReadonlyArray<[number, number]>,
): KindAdjustment {
  const index = new Uint32Array(entries.map(([i]) => i));
  const value = new Float32Array(entries.map(([, v]) => v));
  return {
    model,
    bias: bias.map((b) => Number(b.toFixed(6))),
    index: Buffer.from(index.buffer).toString("base64"),
    value: Buffer.from(value.buffer).toString("base64"),
  };
}

const lookups = new WeakMap<KindAdjustment, Map<number, number>>();
function lookupOf(a: KindAdjustment): Map<number, number> {
  let m = lookups.get(a);
  if (!m) {
    const { index, value } = kindAdjustmentArrays(a);
    m = new Map();
    for (let i = 0; i < index.length; i++) m.set(index[i]!, value[i]!);
    lookups.set(a, m);
  }
  return m;
}

/** The adjustment's change of each class's logit for hashed features `x` (bucket to value). */
export function kindAdjustmentLogits(
  model: { buckets: number },
  a: KindAdjustment,
  x: ReadonlyMap<number, number>,
): number[] {
  const w = lookupOf(a);
  return a.bias.map((b, c) => {
    let s = b;
    const base = c * model.buckets;
    for (const [k, v] of x) s += (w.get(base + k) ?? 0) * v;
    return s;
  });
}

const adjustedJudges = new WeakMap<AcceptanceAdjustment, WeakMap<JudgeModel, JudgeModel>>();

/** The acceptance model with a repository's adjustment added (the approval bar stays the shipped one). */
export function adjustJudgeModel(model: JudgeModel, a: AcceptanceAdjustment | undefined): JudgeModel {
  if (!a) return model;
  let byModel = adjustedJudges.get(a);
  if (!byModel) adjustedJudges.set(a, (byModel = new WeakMap()));
  let m = byModel.get(model);
  if (!m) {
    m = {
      ...model,
      intercept: model.intercept + a.intercept,
      weights: model.weights.map((w, i) => w + (a.weights[i] ?? 0)),
    };
    byModel.set(model, m);
  }
  return m;
}
