/**
 * Fitting the re-ranker (issue 32, src/core/similar/rerank.ts) on the Hadoop benchmark's development part only:
 * for each development pair's query, the first stage's best `depth` candidates (the earlier reports), labelled 1
 * for the partner and 0 for the rest; a logistic regression (L2) over the signals. The held-out part is not read.
 *
 *   node --import tsx scripts/eval/duplicates-rerank.ts [--depth 20] [--l2 1] [--without code,apart]
 *     [--features '{"compounds":true}']   the first stage's features changed (features.ts, FeatureOptions)
 *
 * Prints the weights to paste into SIMILAR_METHOD, and the development figures by 5-fold cross-validation over
 * the pairs' groups (each fold's pairs ranked by a model fitted on the other four), beside the first stage's.
 */
import { SIMILAR_METHOD, SimilarIndex, type SimilarMethod } from "../../src/core/similar/similar-index.js";
import {
  featureVector,
  RERANK_FEATURES,
  type RerankFeature,
  type Reranker,
} from "../../src/core/similar/rerank.js";
import { figures, groupRoot, loadSplitOrExit, type Report } from "./duplicates-protocol.js";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const depth = Number(arg("--depth", "20"));
const l2 = Number(arg("--l2", "1"));
const without = new Set(arg("--without", "").split(",").filter(Boolean));
const used = RERANK_FEATURES.filter((f) => !without.has(f));
const featureChanges = JSON.parse(arg("--features", "{}")) as Partial<SimilarMethod["features"]>;

interface Example {
  group: number;
  key: number;
  /** The first stage's rank (0-based). */
  rank: number;
  x: number[];
  y: number;
}

/** Logistic regression by gradient descent on standardised features; weights returned on the raw scale. */
export function fitLogistic(examples: readonly Example[], lambda: number): { bias: number; w: number[] } {
  const d = examples[0]!.x.length;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const e of examples) e.x.forEach((v, j) => (mean[j]! += v / examples.length));
  for (const e of examples) e.x.forEach((v, j) => (sd[j]! += (v - mean[j]!) ** 2 / examples.length));
  for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]!) || 1;
  const w = new Array<number>(d).fill(0);
  let b = 0;
  const n = examples.length;
  for (let step = 0; step < 3000; step++) {
    const gw = w.map((wj) => (lambda * wj) / n);
    let gb = 0;
    for (const e of examples) {
      let z = b;
      for (let j = 0; j < d; j++) z += w[j]! * ((e.x[j]! - mean[j]!) / sd[j]!);
      const err = 1 / (1 + Math.exp(-z)) - e.y;
      gb += err / n;
      for (let j = 0; j < d; j++) gw[j]! += (err * ((e.x[j]! - mean[j]!) / sd[j]!)) / n;
    }
    for (let j = 0; j < d; j++) w[j]! -= 0.5 * gw[j]!;
    b -= 0.5 * gb;
  }
  const raw = w.map((wj, j) => wj / sd[j]!);
  return { bias: b - raw.reduce((s, rj, j) => s + rj * mean[j]!, 0), w: raw };
}

/** Per pair, the ordinal of its connected group of pairs (in order of each group's first pair). */
export function components(pairs: readonly [number, number][]): number[] {
  const find = groupRoot(pairs);
  const ordinal = new Map<number, number>();
  return pairs.map(([a]) => {
    const root = find(a);
    if (!ordinal.has(root)) ordinal.set(root, ordinal.size);
    return ordinal.get(root)!;
  });
}

function main() {
  const { reports, pairs, held } = loadSplitOrExit();
  const devPairs = pairs.filter(([a]) => !held(a));
  const method: SimilarMethod = {
    ...SIMILAR_METHOD,
    features: { ...SIMILAR_METHOD.features, ...featureChanges },
    rerank: {
      depth,
      bias: 0,
      weights: Object.fromEntries(RERANK_FEATURES.map((f) => [f, 0])) as Record<RerankFeature, number>,
    },
  };
  const index = new SimilarIndex(method);
  const byId = new Map<number, Report>(reports.map((r) => [r.id, r]));
  const features = new Map(reports.map((r) => [r.id, index.features(r.title, r.body)]));
  for (const r of reports) index.set(r.id, features.get(r.id)!);
  const examples: Example[] = [];
  const firstRanks: { pair: [number, number]; rank: number }[] = [];
  devPairs.forEach((pair, group) => {
    const [a, b] = pair.map((id) => byId.get(id)!);
    const [query, target] =
      a!.created > b!.created || (a!.created === b!.created && a!.id > b!.id) ? [a!, b!] : [b!, a!];
    const accept = (key: number) => key !== query.id && byId.get(key)!.created <= query.created;
    const hits = index.firstStage(features.get(query.id)!, reports.length, accept);
    const at = hits.findIndex((h) => h.key === target.id);
    firstRanks.push({ pair, rank: at < 0 ? Infinity : at + 1 });
    const few = hits.slice(0, depth);
    index.signals(features.get(query.id)!, few, query.id).forEach((s, rank) => {
      const x = featureVector(s);
      examples.push({
        group,
        key: few[rank]!.key,
        rank,
        x: used.map((f) => x[f]),
        y: few[rank]!.key === target.id ? 1 : 0,
      });
    });
  });
  const positives = examples.filter((e) => e.y === 1).length;
  console.log(
    `${devPairs.length} development pairs, ${examples.length} candidates (${positives} partners in the first ${depth}); features: ${used.join(", ")}`,
  );
  const ranksOf = (model: { bias: number; w: number[] }, groups: Set<number>) =>
    devPairs
      .map((pair, group) => ({ pair, group }))
      .filter(({ group }) => groups.has(group))
      .map(({ pair, group }) => {
        const mine = examples.filter((e) => e.group === group);
        const z = (e: Example) => model.bias + e.x.reduce((s, v, j) => s + v * model.w[j]!, 0);
        const order = [...mine].sort((p, q) => z(q) - z(p) || p.key - q.key);
        const at = order.findIndex((e) => e.y === 1);
        const first = firstRanks[group]!.rank;
        return { pair, rank: at >= 0 ? at + 1 : first };
      });
  // Folds by duplicate group (pairs sharing a report are in one fold: a report never trains and tests at once).
  const componentOf = components(devPairs);
  const cv: { pair: [number, number]; rank: number }[] = [];
  for (let fold = 0; fold < 5; fold++) {
    const test = new Set(devPairs.map((_, g) => g).filter((g) => componentOf[g]! % 5 === fold));
    const model = fitLogistic(
      examples.filter((e) => !test.has(e.group)),
      l2,
    );
    cv.push(...ranksOf(model, test));
  }
  const show = (name: string, ranks: { pair: [number, number]; rank: number }[]) => {
    const fg = figures(ranks);
    console.log(
      `${name}: R@1 ${fg.r1.toFixed(2)} R@5 ${fg.r5.toFixed(2)} R@10 ${fg.r10.toFixed(2)} MRR ${fg.mrr.toFixed(2)}`,
    );
  };
  show("first stage (dev)", firstRanks);
  show("re-ranked, 5-fold CV (dev)", cv);
  const all = fitLogistic(examples, l2);
  show("re-ranked, fitted on all dev (in-sample)", ranksOf(all, new Set(devPairs.map((_, g) => g))));
  const weights = Object.fromEntries(
    RERANK_FEATURES.map((f) => [f, used.includes(f) ? Number(all.w[used.indexOf(f)]!.toFixed(3)) : 0]),
  ) as Record<RerankFeature, number>;
  const model: Reranker = { depth, bias: Number(all.bias.toFixed(3)), weights };
  console.log(JSON.stringify(model));
}

main();
