import { KIND_CLASSES, type ModelKind } from "../core/offline/kind-model.js";

// The pieces every part of learning's fit uses: steps that yield between small pieces of work (so the server's
// driver can give the event loop a turn), clipping, the figures, folds and a seeded shuffle.

/** The text cut to `max` code units, never between the two halves of a surrogate pair. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A part of the fit that stops (yields) between small pieces of work, so that its caller can give the event
 * loop a turn; `drain` runs it through at once.
 */
export type Steps<T> = Generator<void, T, undefined>;

export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How long the sliced fit runs before it lets the event loop take a turn. */
export const SLICE_MS = 10;

/** Runs `steps` in slices of `sliceMs`, with a turn of the event loop (`setImmediate`) between them. */
export async function runSliced<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
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

export const argmax = (v: readonly number[]) => v.reduce((b, x, i) => (x > v[b]! ? i : b), 0);

/** A seeded shuffle (mulberry32): the same order on every machine. */
export function shuffled(n: number, seed: number): number[] {
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
 * The folds: issue i (by number) is in fold i mod k, so each fold spreads over the repository's history and
 * the split is the same on every run.
 */
export function folds<T extends { number: number }>(
  items: readonly T[],
  k: number,
): { fit: T[]; held: T[] }[] {
  const sorted = [...items].sort((a, b) => a.number - b.number);
  return Array.from({ length: k }, (_, f) => ({
    fit: sorted.filter((_, i) => i % k !== f),
    held: sorted.filter((_, i) => i % k === f),
  }));
}

export const round = (v: number) => Math.round(v * 1000) / 1000;
