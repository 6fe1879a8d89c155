/**
 * Size bands of a change, by lines changed (added + removed) outside generated files and lockfiles.
 *
 * Chosen from real pull requests: the 307,545 of ../shared/benchmarks/pullreqs (863 projects; Ruby, Python,
 * Java, Scala), lines changed being the dataset's source + test churn, pull requests that change no source or
 * test line left out. The cuts are percentiles of the development projects (three quarters of them, by the
 * seeded hash of scripts/eval/holdout.ts): XS up to p20, S up to p50, M up to p80, L up to p95, XL above, so
 * half of real pull requests are XS or S and XL is the largest one in twenty. Java's pull requests are about
 * three times larger at every percentile, and its own cuts place the held-out Java projects' pull requests in
 * the intended shares (18/30/31/16/6 %) where the pooled cuts do not (11/22/33/24/10 %); Python's, Ruby's and
 * Scala's held-out projects fit the pooled cuts better than their own, so every other language uses those.
 * Together the held-out projects' 57,717 pull requests fall 19.5/29.8/30.7/15.0/5.0 % into XS/S/M/L/XL.
 * `npx tsx scripts/eval/size-bands.ts` prints the percentiles, the cuts and the held-out shares.
 */
export const SIZE_BANDS = ["XS", "S", "M", "L", "XL"] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

/** Upper bounds (inclusive) of XS, S, M and L; anything above the last is XL. */
export const SIZE_CUTS = {
  /** Every language but Java: the pooled percentiles p20, p50, p80, p95. */
  default: [5, 31, 214, 1454],
  /** Java (.java files hold more than half the lines counted). */
  java: [10, 76, 498, 2908],
} as const satisfies Record<string, readonly [number, number, number, number]>;

export type SizeLanguage = keyof typeof SIZE_CUTS;

export function sizeBand(linesChanged: number, language: SizeLanguage = "default"): SizeBand {
  const cuts = SIZE_CUTS[language];
  let i = 0;
  while (i < cuts.length && linesChanged > cuts[i]!) i++;
  return SIZE_BANDS[i]!;
}
