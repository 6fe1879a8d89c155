import {
  KIND_CLASSES,
  kindFeatures,
  type KindModel,
  type ModelKind,
} from "../../src/core/offline/kind-model.js";
import { rng } from "./metrics.js";

export interface KindExample {
  repo: string;
  title: string;
  body: string;
  label: ModelKind;
}

export interface KindFitOptions {
  buckets: number;
  epochs: number;
  /** L2 strength per touched weight per update. */
  l2: number;
  rate: number;
  seed: number;
}

/**
 * Chosen by cross-validation on the training split only (`npm run eval -- --choose-kind`, scripts/eval/kind-cv.ts):
 * the smallest model within 0.005 of the best (2^16 buckets: 0.774 within repositories against 0.776 for 2^17,
 * the same leave-one-repository-out, half the weights).
 */
export const KIND_FIT: KindFitOptions = { buckets: 1 << 16, epochs: 12, l2: 1e-4, rate: 1, seed: 7 };

/**
 * Multinomial logistic regression by stochastic gradient descent over the hashed features, in a seeded
 * order: the same data gives the same weights on every machine. Classes are weighted so that each repository
 * and each kind counts alike (the labelled corpus is mostly feature requests).
 */
export function fitKind(examples: readonly KindExample[], o: KindFitOptions = KIND_FIT): KindModel {
  const C = KIND_CLASSES.length;
  const w = new Float64Array(C * o.buckets);
  const bias = new Float64Array(C);
  const xs = examples.map((e) => [...kindFeatures(e.title, e.body, o.buckets)]);
  const ys = examples.map((e) => KIND_CLASSES.indexOf(e.label));
  const count = new Map<string, number>();
  for (const e of examples) count.set(`${e.repo}|${e.label}`, (count.get(`${e.repo}|${e.label}`) ?? 0) + 1);
  const meanCount = examples.length / count.size;
  const weightOf = examples.map((e) => Math.min(3, meanCount / count.get(`${e.repo}|${e.label}`)!));
  const order = examples.map((_, i) => i);
  const random = rng(o.seed);
  const z = new Float64Array(C);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = o.rate / (1 + epoch * 0.3);
    for (const i of order) {
      const x = xs[i]!;
      for (let c = 0; c < C; c++) {
        let s = bias[c]!;
        const base = c * o.buckets;
        for (const [k, v] of x) s += w[base + k]! * v;
        z[c] = s;
      }
      const max = Math.max(...z);
      let sum = 0;
      for (let c = 0; c < C; c++) sum += z[c] = Math.exp(z[c]! - max);
      for (let c = 0; c < C; c++) {
        const g = (z[c]! / sum - (ys[i] === c ? 1 : 0)) * weightOf[i]!;
        const base = c * o.buckets;
        for (const [k, v] of x) w[base + k] = w[base + k]! * (1 - rate * o.l2) - rate * g * v;
        bias[c] = bias[c]! - rate * g * 0.1;
      }
    }
  }
  // int8 with one scale: a quarter of the bytes of float32, and weights far below the scale's step matter little.
  let maxAbs = 0;
  for (const v of w) maxAbs = Math.max(maxAbs, Math.abs(v));
  const scale = maxAbs / 127 || 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i]! / scale);
  return {
    buckets: o.buckets,
    weights: Buffer.from(q.buffer).toString("base64"),
    scale: Number(scale.toPrecision(8)),
    bias: [...bias].map((b) => Number(b.toFixed(6))),
  };
}
