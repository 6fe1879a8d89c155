/**
 * What kind of report a task is (bug, feature request or question), from a trained linear model: a
 * multinomial logistic regression over hashed word and character n-grams of the title and of the author's
 * own text. Word lists guessed the kind from a few title verbs and read half the bug reports as feature
 * requests; a model fitted on real, labelled issues (`npm run fit`) reads the whole text. Pure and
 * deterministic: the weights are data (kind-model.data.ts), the features a fixed hash.
 */
import { kindAdjustmentLogits, type KindAdjustment } from "./calibration.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { readStructure } from "./read-structure.js";
import type { TaskStructure } from "./task-structure.js";

export const KIND_CLASSES = ["bug", "feature", "question"] as const;
export type ModelKind = (typeof KIND_CLASSES)[number];

export interface KindModel {
  /** Hash buckets per class (a power of two). */
  buckets: number;
  /** int8 weights, class-major ([class][bucket]), base64; each weight is `value * scale`. */
  weights: string;
  scale: number;
  bias: number[];
}

/** FNV-1a, 32 bits: a stable hash of a feature name to its bucket. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const BODY_CHARS = 3000;
/** How much a structural feature counts against one word (before normalisation). */
const STRUCTURE_WEIGHT = 3;
const TOKEN_RE = /[\p{L}\p{N}_]+/gu;
/** How many of the author's opening words of prose count apart. */
const OPENING_WORDS = 25;

/**
 * The author's words: template prompts (HTML comments) go, code and links become one token each (their
 * presence says something, their content is noise), numbers collapse.
 */
export function ownText(md: MarkdownText): string {
  return renderMarkdown(md, () => " zzcode ")
    .replace(/https?:\/\/\S+/g, " zzlink ")
    .replace(/\d+/g, "0")
    .slice(0, BODY_CHARS)
    .toLowerCase();
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN_RE) ?? [];
}

/**
 * Feature name to count, before hashing. `structure` is the task's structure read without the junk flags (the
 * reader passes the one it has already read; the fit and the learning read it here).
 */
export function featureNames(
  title: string,
  description: string,
  structure?: TaskStructure,
  md: MarkdownText = readMarkdown(description),
): Map<string, number> {
  const out = new Map<string, number>();
  readFeatures(title, description, structure, md, (prefix, a, b, n) => {
    const name = b === undefined ? `${prefix}${a}` : `${prefix}${a} ${b}`;
    out.set(name, (out.get(name) ?? 0) + n);
  });
  return out;
}

/**
 * Each feature, given to `add` as its name's parts (a prefix, a word, the next word of a pair) and a count, so
 * the scorer can hash a name without writing it out (kindFeatures) and the fit can see it (featureNames).
 */
type AddFeature = (prefix: string, a: string, b: string | undefined, n: number) => void;

function readFeatures(
  title: string,
  description: string,
  structure: TaskStructure | undefined,
  md: MarkdownText,
  put: AddFeature,
): void {
  const add = (name: string, n = 1) => put(name, "", undefined, n);
  // The structural reading holds in any project (a title tag, steps, a stack trace, expected versus
  // actual, a question asked), where words are often one project's own.
  const s = structure ?? readStructure(title, description, undefined, md);
  const strong = STRUCTURE_WEIGHT;
  add(`s:kind:${s.kind}`, strong);
  if (s.titleTag) add(`s:tag:${s.kind}`, strong);
  if (s.severity) add(`s:severity`, strong);
  if (s.steps) add("s:steps", strong);
  if (s.expected) add("s:expected", strong);
  if (s.code) add("s:code", strong);
  if (s.versions) add("s:versions", strong);
  if (s.screenshot) add("s:screenshot", strong);
  if (s.titleQuestion) add("s:title-question", strong);
  if (s.questions > 0) add(s.questions > 2 ? "s:questions:many" : "s:questions:some", strong);
  if (s.userRequest) add("s:user-request", strong);
  if (s.titleImperative) add("s:imperative", strong);
  if (s.acceptance) add("s:acceptance", strong);
  const t = tokens(title.replace(/\d+/g, "0"));
  for (let i = 0; i < t.length; i++) {
    put("t:", t[i]!, undefined, 1);
    if (i + 1 < t.length) put("t:", t[i]!, t[i + 1]!, 1);
  }
  const lowTitle = ` ${title.toLowerCase().replace(/\s+/g, " ")} `;
  for (let i = 0; i + 4 <= lowTitle.length; i++) put("c:", lowTitle.slice(i, i + 4), undefined, 1);
  const own = ownText(md);
  // The author's opening words, apart from headings and lists ("When I open…", "Is there a way…", "It would
  // be nice…"), say the kind in any project; a template's headings are one project's own (cross-validation on
  // the training split: headings kept apart cost 2 points of leave-one-repository-out macro-F1, the opening
  // words and the count of questions asked gained 3).
  const prose = own
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^\s*(?:#|\*\*|[-*+] |\d+[.)] |>)/.test(line))
    .join(" ");
  const opening = tokens(prose).slice(0, OPENING_WORDS);
  for (let i = 0; i < opening.length; i++) {
    put("f:", opening[i]!, undefined, 1);
    if (i + 1 < opening.length) put("f:", opening[i]!, opening[i + 1]!, 1);
  }
  const asked = (prose.match(/\?/g) ?? []).length;
  add(asked === 0 ? "q:0" : asked === 1 ? "q:1" : "q:2+", 2);
  const b = tokens(own);
  for (let i = 0; i < b.length; i++) {
    put("b:", b[i]!, undefined, 1);
    if (i + 1 < b.length) put("b:", b[i]!, b[i + 1]!, 1);
  }
  add(b.length === 0 ? "len:empty" : b.length < 20 ? "len:short" : b.length < 150 ? "len:mid" : "len:long");
  if (/\?\s*$/.test(title.trim())) add("t:?");
}

/** FNV-1a continued over more characters: the hash of a name written in parts is the hash of the whole name. */
function fnvFeed(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}
const FNV_SPACE = 0x20;

/**
 * Scratch tables for kindFeatures, reused by every call (the reader is synchronous): each name's count by its
 * 32-bit hash in an open-addressed table, then each bucket's value. Allocating two maps per task was a sixth
 * of the kind model's time in garbage collection.
 */
const SLOTS = 1 << 13;
const slotHash = new Int32Array(SLOTS);
const slotCount = new Float64Array(SLOTS);
const slotUsed = new Uint8Array(SLOTS);
const usedSlots: number[] = [];
/** Each bucket's summed value, whether it was seen, and the order seen (grown to the model's bucket count). */
let bucketValue = new Float64Array(0);
let bucketSeen = new Uint8Array(0);
const bucketOrder: number[] = [];

/**
 * Hashes the features into the scratch buckets: afterwards `bucketOrder` lists the buckets seen, in the order
 * first seen, and `bucketValue` holds each one's log-scaled sum. Returns the sums' L2 norm. The caller reads the
 * buckets and then calls `clearBuckets`.
 */
function fillBuckets(
  title: string,
  description: string,
  buckets: number,
  structure: TaskStructure | undefined,
  md: MarkdownText,
): number {
  // Each name's count, keyed by its 32-bit hash (as featureNames would by its text, the names unwritten).
  const overflow = new Map<number, number>();
  // A word's hash after its prefix is the start of its pairs' hashes too: kept for the next call, which is its pair.
  let lastPrefix = "";
  let lastA = "";
  let lastH = 0;
  readFeatures(title, description, structure, md, (prefix, a, b, n) => {
    let h: number;
    if (prefix === lastPrefix && a === lastA) h = lastH;
    else {
      h = fnvFeed(fnvFeed(0x811c9dc5, prefix), a);
      lastPrefix = prefix;
      lastA = a;
      lastH = h;
    }
    if (b !== undefined) h = fnvFeed(Math.imul(h ^ FNV_SPACE, 0x01000193), b);
    // A table three quarters full takes no more names: the rest are counted in a map.
    if (usedSlots.length >= (SLOTS * 3) / 4) {
      const k = h >>> 0;
      overflow.set(k, (overflow.get(k) ?? 0) + n);
      return;
    }
    let slot = h & (SLOTS - 1);
    while (slotUsed[slot] && slotHash[slot] !== h) slot = (slot + 1) & (SLOTS - 1);
    if (!slotUsed[slot]) {
      slotUsed[slot] = 1;
      slotHash[slot] = h;
      slotCount[slot] = 0;
      usedSlots.push(slot);
    }
    slotCount[slot]! += n;
  });
  // Each bucket's value summed in a scratch array, the buckets kept in the order first seen: the map below is
  // built in that order with the same sums, so the logits add up in the same order as a map built directly.
  if (bucketValue.length < buckets) {
    bucketValue = new Float64Array(buckets);
    bucketSeen = new Uint8Array(buckets);
  }
  const addBucket = (h: number, n: number) => {
    const bucket = h & (buckets - 1);
    if (!bucketSeen[bucket]) {
      bucketSeen[bucket] = 1;
      bucketValue[bucket] = 0;
      bucketOrder.push(bucket);
    }
    bucketValue[bucket] = bucketValue[bucket]! + 1 + Math.log(n);
  };
  for (const slot of usedSlots) {
    addBucket(slotHash[slot]!, slotCount[slot]!);
    slotUsed[slot] = 0;
  }
  usedSlots.length = 0;
  for (const [h, n] of overflow) addBucket(h, n);
  let norm = 0;
  for (const b of bucketOrder) norm += bucketValue[b]! * bucketValue[b]!;
  return Math.sqrt(norm) || 1;
}

function clearBuckets(): void {
  for (const b of bucketOrder) bucketSeen[b] = 0;
  bucketOrder.length = 0;
}

/** Hashed, log-scaled and L2-normalised: bucket to value. */
export function kindFeatures(
  title: string,
  description: string,
  buckets: number,
  structure?: TaskStructure,
  md: MarkdownText = readMarkdown(description),
): Map<number, number> {
  const norm = fillBuckets(title, description, buckets, structure, md);
  const out = new Map<number, number>();
  for (const b of bucketOrder) out.set(b, bucketValue[b]! / norm);
  clearBuckets();
  return out;
}

const ids = new WeakMap<KindModel, string>();
/**
 * A fingerprint of the model's weights: a repository's adjustment is fitted against one model and means
 * nothing added to another (a new release's refit), so it carries this and is dropped where it differs.
 */
export function kindModelId(model: KindModel): string {
  let id = ids.get(model);
  if (!id) {
    id = `k${model.buckets}-${fnv1a(`${model.scale}|${model.bias.join(",")}|${model.weights}`).toString(16)}`;
    ids.set(model, id);
  }
  return id;
}

/** The adjustment, where it was fitted against this model (else none: the shipped model alone). */
export function adjustmentFor(model: KindModel, a: KindAdjustment | undefined): KindAdjustment | undefined {
  return a && a.model === kindModelId(model) ? a : undefined;
}

const decoded = new WeakMap<KindModel, Int8Array>();
function weightsOf(model: KindModel): Int8Array {
  let w = decoded.get(model);
  if (!w) {
    const bytes = Buffer.from(model.weights, "base64");
    w = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    decoded.set(model, w);
  }
  return w;
}

/** The model's logit of each kind for hashed features `x`, in KIND_CLASSES order. */
export function kindLogits(model: KindModel, x: ReadonlyMap<number, number>): number[] {
  const w = weightsOf(model);
  const z = model.bias.slice();
  for (let c = 0; c < z.length; c++) {
    const base = c * model.buckets;
    let s = 0;
    for (const [k, v] of x) s += w[base + k]! * v;
    z[c]! += s * model.scale;
  }
  return z;
}

/** Probability of each kind, in KIND_CLASSES order; with a repository's adjustment when one is given. */
export function predictKind(
  model: KindModel,
  title: string,
  description: string,
  adjustment?: KindAdjustment,
  structure?: TaskStructure,
  md?: MarkdownText,
): number[] {
  const a = adjustmentFor(model, adjustment);
  if (a) {
    const x = kindFeatures(title, description, model.buckets, structure, md);
    const z = kindLogits(model, x);
    const d = kindAdjustmentLogits(model, a, x);
    for (let c = 0; c < z.length; c++) z[c]! += d[c]!;
    return softmax(z);
  }
  // Without a repository's adjustment the features are read straight from the scratch buckets (no map of a
  // thousand entries per task), summed in the same order as kindLogits, so the logits are the same to the bit.
  const norm = fillBuckets(title, description, model.buckets, structure, md ?? readMarkdown(description));
  const w = weightsOf(model);
  const z = model.bias.slice();
  for (let c = 0; c < z.length; c++) {
    const base = c * model.buckets;
    let s = 0;
    for (const b of bucketOrder) s += w[base + b]! * (bucketValue[b]! / norm);
    z[c]! += s * model.scale;
  }
  clearBuckets();
  return softmax(z);
}

export function softmax(z: readonly number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}
