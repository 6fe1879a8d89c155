/**
 * The claim rule ("duplicate: true", "Possibly the same as #N") on the Hadoop benchmark's development part
 * (issue 32): the precision–claims curve of every rule family tried, with counts and Wilson 95 % intervals, and
 * the bar chosen by 5-fold cross-validation grouped by duplicate group. The held-out part is not read here (its
 * one reading is `duplicates.ts --holdout --only shipped`). The ranking is untouched: a claim is only ever the
 * first hit of the shipped method.
 *
 *   node --import tsx scripts/eval/duplicates-claims.ts [--list 0.6]   (--list: every claim at or above a bar)
 *
 * Claims are over every development report as a query (its candidates: the reports created no later than it),
 * right when the pair is in the pairs file, as in duplicates-protocol.ts. Every signal below holds in any
 * tracker (scores, titles' and bodies' words, issues filed between); none names a word or key of Hadoop's.
 */
import { createHash } from "node:crypto";
import { isSeries, SIMILAR_METHOD, SimilarIndex } from "../../src/core/similar/similar-index.js";
import { authorText } from "../../src/core/similar/features.js";
import { chooseRule, claims, groupRoot, loadSplitOrExit, type Run } from "./duplicates-protocol.js";

/** Wilson score interval (95 %) of k successes in n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

interface Top {
  query: number;
  key: number;
  right: boolean;
  series: boolean;
  /** The shipped method's score of the first hit (the re-ranker's), and its lead over the second. */
  score: number;
  margin: number;
  /** The first stage's score, the titles' cosine (tokens as written) and their character n-grams' cosine. */
  first: number;
  title: number;
  titleChars: number;
  /** Jaccard of the two bodies' word sets (the author's text; both empty: 1, one empty: 0). */
  body: number;
  /** Issues filed between the two, and hours apart. */
  between: number;
  hours: number;
  /** One text filed twice: the same title words and bodies at least 0.9 alike. */
  copy: boolean;
}

const WORDS = /[\p{L}\p{N}]+/gu;
const wordSet = (s: string) => new Set(s.toLowerCase().match(WORDS) ?? []);
function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

function main() {
  const { reports, pairs, held } = loadSplitOrExit();
  const partners = new Set(pairs.map(([a, b]) => `${a}-${b}`));
  const index = new SimilarIndex(SIMILAR_METHOD);
  const byId = new Map(reports.map((r) => [r.id, r]));
  const features = new Map(reports.map((r) => [r.id, index.features(r.title, r.body)]));
  for (const r of reports) index.set(r.id, features.get(r.id)!);
  const bodyWords = new Map(reports.map((r) => [r.id, wordSet(authorText(r.body, false, true))]));
  const titleWords = new Map(reports.map((r) => [r.id, [...wordSet(r.title)].sort().join(" ")]));

  const tops: Top[] = [];
  for (const q of reports) {
    if (held(q.id)) continue;
    const accept = (k: number) => k !== q.id && byId.get(k)!.created <= q.created;
    const f = features.get(q.id)!;
    const hits = index.query(f, 2, accept, q.id);
    const h = hits[0];
    if (!h) continue;
    const firstStage = index.firstStage(f, SIMILAR_METHOD.rerank!.depth, accept);
    const signals = index.signals(f, firstStage, q.id);
    const s = signals[firstStage.findIndex((x) => x.key === h.key)]!;
    const body = jaccard(bodyWords.get(q.id)!, bodyWords.get(h.key)!);
    tops.push({
      query: q.id,
      key: h.key,
      right: partners.has(`${Math.min(q.id, h.key)}-${Math.max(q.id, h.key)}`),
      series: isSeries(f.title, features.get(h.key)!.title),
      score: h.score,
      margin: h.score - (hits[1]?.score ?? 0),
      first: s.score,
      title: s.title,
      titleChars: s.titleChars,
      body,
      between: s.between,
      hours: (q.created - byId.get(h.key)!.created) / 3.6e6,
      copy: titleWords.get(q.id) === titleWords.get(h.key) && body >= 0.9,
    });
  }
  const reachable = tops.filter((t) => t.right).length;
  console.log(
    `${tops.length} development reports as queries; ${reachable} of them have a partner of the pairs file as the first hit ` +
      `(the most right claims any rule on the first hit can make); series never claimed.`,
  );

  const f2 = (x: number) => x.toFixed(2);
  const row = (made: number, right: number) => {
    if (made === 0) return "0 claims";
    const [lo, hi] = wilson(right, made);
    return `${right}/${made} = ${f2(right / made)} [${f2(lo)}, ${f2(hi)}]`;
  };
  const curve = (name: string, keep: (t: Top) => boolean, value: (t: Top) => number, bars: number[]) => {
    console.log(`\n${name}`);
    for (const bar of bars) {
      const made = tops.filter((t) => !t.series && keep(t) && value(t) >= bar);
      console.log(`  ≥ ${f2(bar)}: ${row(made.length, made.filter((t) => t.right).length)}`);
    }
  };
  const bars = [0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.95];
  const all = () => true;
  curve("A. the shipped score (the re-ranker's), margin 0 — the rule shipped", all, (t) => t.score, bars);
  curve(
    "B. the shipped score, ahead of the second hit by ≥ 0.3",
    (t) => t.margin >= 0.3,
    (t) => t.score,
    bars,
  );
  curve("C. the first stage's score alone", all, (t) => t.first, bars);
  curve(
    "D. titles and bodies both alike: min(title cosine, body Jaccard)",
    all,
    (t) => Math.min(t.title, t.body),
    bars,
  );
  curve(
    "E. the shipped score, not one text filed twice (same title words, bodies ≥ 0.9 alike)",
    (t) => !t.copy,
    (t) => t.score,
    bars,
  );
  curve(
    "F. the shipped score, at least one issue filed between",
    (t) => t.between >= 1,
    (t) => t.score,
    bars,
  );
  curve(
    "G. the shipped score, at least a day apart",
    (t) => t.hours >= 24,
    (t) => t.score,
    bars,
  );

  // H. A claim model: logistic regression over the first hit's signals, out-of-fold scores (grouped 5-fold CV).
  const root = groupRoot(pairs);
  const fold = (id: number) =>
    createHash("sha256")
      .update(`claims:${root(id)}`)
      .digest()[0]! % 5;
  const x = (t: Top) => [
    t.score,
    t.margin,
    t.title,
    t.titleChars,
    t.body,
    Math.log1p(t.between),
    t.copy ? 1 : 0,
  ];
  const oof = new Map<number, number>();
  for (let k = 0; k < 5; k++) {
    const train = tops.filter((t) => !t.series && fold(t.query) !== k);
    const model = fitLogistic(
      train.map(x),
      train.map((t) => (t.right ? 1 : 0)),
      10,
    );
    for (const t of tops) if (fold(t.query) === k) oof.set(t.query, model(x(t)));
  }
  curve(
    "H. a claim model (logistic over score, margin, title, titleChars, body, apart, copy), out-of-fold",
    all,
    (t) => oof.get(t.query)!,
    [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8],
  );

  // The bar by grouped 5-fold CV: each fold's claims under the rule the protocol's chooser picks on the other four.
  console.log("\nThe bar chosen by grouped 5-fold CV (duplicates-protocol.ts chooseRule, wanted 0.8):");
  const asRun: Run["tops"] = tops.map((t) => ({
    query: t.query,
    hits: [
      { key: t.key, score: t.score },
      { key: -1, score: t.score - t.margin },
    ],
    series: t.series,
  }));
  let made = 0;
  let right = 0;
  for (let k = 0; k < 5; k++) {
    const rule = chooseRule(
      asRun.filter((t) => fold(t.query) !== k),
      partners,
      0.8,
    );
    const c = claims(
      asRun.filter((t) => fold(t.query) === k),
      rule,
      partners,
    );
    made += c.made;
    right += c.right;
    console.log(
      `  fold ${k}: bar ${f2(rule.duplicateAt)} margin ${f2(rule.duplicateMargin)} → ${c.right}/${c.made} on the fold`,
    );
  }
  console.log(`  out of fold: ${row(made, right)}`);
  const whole = chooseRule(asRun, partners, 0.8);
  const c = claims(asRun, whole, partners);
  console.log(
    `  on all development queries: bar ${f2(whole.duplicateAt)} margin ${f2(whole.duplicateMargin)} → ${row(c.made, c.right)}`,
  );

  const listAt = process.argv.indexOf("--list");
  if (listAt > 0) {
    const bar = Number(process.argv[listAt + 1]);
    for (const t of [...tops].sort((a, b) => b.score - a.score))
      if (!t.series && t.score >= bar)
        console.log(
          `  ${t.right ? "RIGHT" : "wrong"} ${t.score.toFixed(4)} ${t.query} ~ ${t.key} title ${f2(t.title)} body ${f2(t.body)} between ${t.between}${t.copy ? " copy" : ""}`,
        );
  }
}

/** L2-regularised logistic regression by gradient descent on standardised inputs; returns the probability. */
function fitLogistic(xs: number[][], ys: number[], lambda: number): (x: number[]) => number {
  const d = xs[0]!.length;
  const n = xs.length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / n);
  const sd = Array.from(
    { length: d },
    (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n) || 1,
  );
  const z = xs.map((x) => x.map((v, j) => (v - mean[j]!) / sd[j]!));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < 2000; step++) {
    const gw = w.map((wj) => (lambda * wj) / n);
    let gb = 0;
    z.forEach((x, i) => {
      const err = 1 / (1 + Math.exp(-(b + x.reduce((s, v, j) => s + v * w[j]!, 0)))) - ys[i]!;
      gb += err / n;
      x.forEach((v, j) => (gw[j]! += (err * v) / n));
    });
    w.forEach((_, j) => (w[j]! -= 0.5 * gw[j]!));
    b -= 0.5 * gb;
  }
  return (x) => 1 / (1 + Math.exp(-(b + x.reduce((s, v, j) => s + ((v - mean[j]!) / sd[j]!) * w[j]!, 0))));
}

main();
