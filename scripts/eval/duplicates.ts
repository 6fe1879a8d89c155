/**
 * Similar issues on a public benchmark (issue 32): Apache Hadoop's tracker from GitBugs,
 * ../shared/benchmarks/duplicates/ (2,503 reports, 65 duplicate pairs), under its README's protocol:
 * - each unordered pair's query is the report created later; the candidates are every other report created no
 *   later than it; recall@1/5/10 and MRR over the pairs;
 * - claims ("duplicate: true") over every report as a query, against the same candidates: how many, and the
 *   share naming a real duplicate partner (a pair of the file, either way round).
 * A third of the duplicate groups (and of the other reports, as queries for the claims) is held out, by a seeded
 * hash fixed before any variant was tried; variants and the threshold are chosen on the rest.
 *
 *   node --import tsx scripts/eval/duplicates.ts            every variant, development figures
 *   node --import tsx scripts/eval/duplicates.ts --holdout  the same and the held-out figures
 *   ... --only shipped                                      one variant
 */
import { DEFAULT_FEATURES, type FeatureOptions } from "../../src/core/similar/features.js";
import type { Weighting } from "../../src/core/similar/term-index.js";
import { isDuplicate, SIMILAR_METHOD, type SimilarMethod } from "../../src/core/similar/similar-index.js";
import { chooseRule, claims, figures, loadSplitOrExit, run } from "./duplicates-protocol.js";

const f = (x: number) => (Number.isNaN(x) ? "  -  " : x.toFixed(2));

const base = SIMILAR_METHOD;
const feat = DEFAULT_FEATURES;
const bm25 = (k1: number, b: number) => ({ scheme: "bm25" as const, k1, b });
const tfidf = { scheme: "tfidf" as const, k1: 1.2, b: 0.75 };
const v = (
  features: Partial<FeatureOptions>,
  words: Weighting = tfidf,
  chars: { weight: number; weighting?: Weighting } = { weight: 0 },
): SimilarMethod => ({
  ...base,
  features: { ...feat, dropCode: false, ...features },
  words,
  chars: chars.weighting ?? tfidf,
  charWeight: chars.weight,
});
const good: Partial<FeatureOptions> = { stopwords: true, stem: true, versions: true };
/** Every variant tried, in the order tried; `shipped` is SIMILAR_METHOD itself. */
export const VARIANTS: Record<string, SimilarMethod> = {
  "baseline (README: tf-idf, title x2, code kept)": v({}),
  "tf-idf, code dropped": v({ dropCode: true }),
  "tf-idf, title x1": v({ titleWeight: 1 }),
  "tf-idf, title x3": v({ titleWeight: 3 }),
  "tf-idf, title x4": v({ titleWeight: 4 }),
  "tf-idf, stopwords + plural stem": v({ stopwords: true, stem: true }),
  "tf-idf, identifiers split": v({ splitIdentifiers: true }),
  "tf-idf, versions one word": v({ versions: true }),
  "bm25 k1 1.2 b 0.75": v({}, bm25(1.2, 0.75)),
  "bm25 k1 1.5 b 0.5": v({}, bm25(1.5, 0.5)),
  "bm25 k1 0.9 b 0.4": v({}, bm25(0.9, 0.4)),
  "tf-idf + title char 3-grams 0.3": v({ ngrams: [3] }, tfidf, { weight: 0.3 }),
  "tf-idf + title char 4-grams 0.3": v({ ngrams: [4] }, tfidf, { weight: 0.3 }),
  "tf-idf + all char 4-grams 0.3": v({ ngrams: [4], ngramSource: "all" }, tfidf, { weight: 0.3 }),
  "tf-idf + all char 3,4-grams 0.5": v({ ngrams: [3, 4], ngramSource: "all" }, tfidf, { weight: 0.5 }),
  "S = stopwords + stem + versions": v(good),
  "S, code dropped": v({ ...good, dropCode: true }),
  "S, title x3": v({ ...good, titleWeight: 3 }),
  "S + title char 4-grams 0.2": v({ ...good, ngrams: [4] }, tfidf, { weight: 0.2 }),
  "S + title char 4-grams 0.4": v({ ...good, ngrams: [4] }, tfidf, { weight: 0.4 }),
  "S + title char 3,4-grams 0.3": v({ ...good, ngrams: [3, 4] }, tfidf, { weight: 0.3 }),
  "S + all char 4-grams 0.3": v({ ...good, ngrams: [4], ngramSource: "all" }, tfidf, { weight: 0.3 }),
  "S, bm25 words + title char 4-grams 0.3": v({ ...good, ngrams: [4] }, bm25(1.2, 0.75), { weight: 0.3 }),
  "S + title char 4-grams 0.2, first stage only": {
    ...SIMILAR_METHOD,
    features: { ...SIMILAR_METHOD.features, urlTails: false },
    rerank: undefined,
  },
  "S + title char 4-grams 0.2, re-ranked top 20 (duplicates-rerank.ts --l2 30)": {
    ...SIMILAR_METHOD,
    features: { ...SIMILAR_METHOD.features, urlTails: false },
    rerank: {
      depth: 20,
      bias: -2.027,
      weights: {
        score: 2.664,
        behindBest: -2.097,
        title: 1.467,
        titleChars: 0,
        rareShared: 0.39,
        code: -0.125,
        apart: -0.292,
      },
    },
  },
  "S + title char 4-grams 0.2 + links' last parts, first stage only": {
    ...SIMILAR_METHOD,
    rerank: undefined,
  },
  "S + title char 4-grams 0.2 + links' last parts, re-ranked top 20 (refitted, grouped CV, --l2 30)": {
    ...SIMILAR_METHOD,
    rerank: {
      depth: 20,
      bias: -2.096,
      weights: {
        score: 2.75,
        behindBest: -2.15,
        title: 1.416,
        titleChars: 0,
        rareShared: 0.491,
        code: -0.223,
        apart: -0.286,
      },
    },
  },
  "S + title char 4-grams 0.2 + links' last parts, re-ranked with the titles' n-grams (--l2 30)":
    SIMILAR_METHOD,
  shipped: SIMILAR_METHOD,
};

function main() {
  const { reports, pairs, held } = loadSplitOrExit();
  const showHeld = process.argv.includes("--holdout");
  const onlyAt = process.argv.indexOf("--only");
  const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
  const partners = new Set(pairs.map(([a, b]) => `${a}-${b}`));
  const devPairs = pairs.filter(([a]) => !held(a));
  const heldPairs = pairs.filter(([a]) => held(a));
  console.log(
    `${reports.length} reports, ${pairs.length} pairs: ${devPairs.length} development, ${heldPairs.length} held out` +
      ` (${reports.filter((r) => held(r.id)).length} reports held out as claim queries)`,
  );
  const header = "variant | pairs | R@1 | R@5 | R@10 | MRR | threshold / margin | claims | claim precision";
  console.log(header);
  for (const [name, method] of Object.entries(VARIANTS)) {
    if (only && name !== only) continue;
    const started = Date.now();
    const r = run(method, reports, pairs);
    const parts: [string, (id: number) => boolean][] = [["dev", (id) => !held(id)]];
    if (showHeld) parts.push(["held-out", held], ["all", () => true]);
    const devTops = r.tops.filter((t) => !held(t.query));
    const fixedAt = process.argv.indexOf("--rule");
    const rule =
      fixedAt > 0
        ? {
            duplicateAt: Number(process.argv[fixedAt + 1]),
            duplicateMargin: Number(process.argv[fixedAt + 2]),
          }
        : name === "shipped"
          ? method
          : chooseRule(devTops, partners, 0.8);
    for (const [part, inPart] of parts) {
      const fg = figures(r.ranks.filter((x) => inPart(x.pair[0])));
      const c = claims(
        r.tops.filter((t) => inPart(t.query)),
        rule,
        partners,
      );
      console.log(
        `${name} [${part}] | ${fg.pairs} | ${f(fg.r1)} | ${f(fg.r5)} | ${f(fg.r10)} | ${f(fg.mrr)} | ${rule.duplicateAt.toFixed(2)} / ${rule.duplicateMargin.toFixed(2)} | ${c.made} (${c.right} right) | ${f(c.precision)}`,
      );
    }
    if (process.argv.includes("--curve"))
      for (const margin of [0, 0.05, 0.1, 0.15, 0.2, 0.3])
        console.log(
          `  margin ${margin}: ` +
            [0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
              .map((t) => {
                const c = claims(devTops, { duplicateAt: t, duplicateMargin: margin }, partners);
                return `${t}: ${c.right}/${c.made}`;
              })
              .join("  "),
        );
    if (process.argv.includes("--time")) console.log(`  ${Date.now() - started} ms`);
    if (process.argv.includes("--show-claims")) {
      const title = new Map(reports.map((x) => [x.id, `${x.title}" (${x.resolution || "open"}`]));
      for (const t of devTops)
        for (const h of t.hits
          .slice(0, 1)
          .filter((h) => !t.series && isDuplicate(rule, h.score, t.hits[1]?.score ?? 0)))
          console.log(
            `  ${partners.has(`${Math.min(t.query, h.key)}-${Math.max(t.query, h.key)}`) ? "RIGHT" : "wrong"} ${h.score.toFixed(2)} ${t.query} "${title.get(t.query)}" ~ ${h.key} "${title.get(h.key)}"`,
          );
    }
  }
}

main();
