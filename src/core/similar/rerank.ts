/**
 * The re-ranker (issue 32): the first stage's best few candidates (words and title n-grams, similar-index.ts)
 * ordered again by a logistic model over a few signals that hold in any tracker: the first stage's score and its
 * distance from the best, the titles' own similarity, rare words shared, code shared (identifiers, stack frames,
 * exception names, error messages) and how far apart the two were filed. Its weights were fitted on the
 * benchmark's development pairs only (scripts/eval/duplicates-rerank.ts); the output is in [0, 1]. Pure: no I/O.
 */

/** The signals of one (query, candidate) pair, in this order. */
export const RERANK_FEATURES = [
  "score",
  "behindBest",
  "title",
  "titleChars",
  "rareShared",
  "code",
  "apart",
] as const;
export type RerankFeature = (typeof RERANK_FEATURES)[number];

export interface Reranker {
  /** How many of the first stage's candidates are ordered again. */
  depth: number;
  bias: number;
  weights: Record<RerankFeature, number>;
}

/** The signals of one candidate, as the model reads them. */
export interface PairSignals {
  /** The first stage's score, and how far below the best candidate's. */
  score: number;
  best: number;
  /** TF-IDF cosine of the two titles' words. */
  title: number;
  /** TF-IDF cosine of the titles' character n-grams (0 where the method has none). */
  titleChars: number;
  /** Words both hold that few issues of the repository hold. */
  rareShared: number;
  /** TF-IDF cosine of the code terms (features.ts, codeTerms). */
  code: number;
  /** How many of the repository's issues (that the index holds) were filed between the two. */
  between: number;
}

export function featureVector(s: PairSignals): Record<RerankFeature, number> {
  return {
    score: s.score,
    behindBest: s.best - s.score,
    title: s.title,
    titleChars: s.titleChars,
    rareShared: Math.log1p(s.rareShared),
    code: s.code,
    apart: Math.log1p(s.between),
  };
}

export function rerankScore(model: Reranker, s: PairSignals): number {
  const x = featureVector(s);
  let z = model.bias;
  for (const f of RERANK_FEATURES) z += model.weights[f] * x[f];
  return 1 / (1 + Math.exp(-z));
}
