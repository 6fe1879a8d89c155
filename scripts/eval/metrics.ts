/** Judgement metrics: AUC with a bootstrap interval, and a seeded PRNG so every run prints the same figures. */

/** Mulberry32: small, seeded, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Area under the ROC curve: P(score of a positive > score of a negative), ties count half. */
export function auc(pos: readonly number[], neg: readonly number[]): number {
  if (pos.length === 0 || neg.length === 0) return NaN;
  // Rank-based (Mann-Whitney U), O(n log n).
  const all = [...pos.map((s) => ({ s, p: 1 })), ...neg.map((s) => ({ s, p: 0 }))].sort((a, b) => a.s - b.s);
  let rankSumPos = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.p) rankSumPos += rank;
    i = j;
  }
  return (rankSumPos - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

export interface Scored {
  positive: boolean;
  score: number;
}

/** AUC and its percentile bootstrap 95% interval (issues resampled with replacement). */
export function aucWithInterval(
  items: readonly Scored[],
  rounds = 1000,
  seed = 7,
): { auc: number; lo: number; hi: number; n: number } {
  const split = (xs: readonly Scored[]) => [
    xs.filter((x) => x.positive).map((x) => x.score),
    xs.filter((x) => !x.positive).map((x) => x.score),
  ];
  const [p, n] = split(items);
  const point = auc(p!, n!);
  const random = rng(seed);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const draw: Scored[] = [];
    for (let i = 0; i < items.length; i++) draw.push(items[Math.floor(random() * items.length)]!);
    const [bp, bn] = split(draw);
    const a = auc(bp!, bn!);
    if (!Number.isNaN(a)) samples.push(a);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
  return { auc: point, lo: at(0.025), hi: at(0.975), n: items.length };
}

/**
 * Repository-grouped folds: every issue of a repository falls in the same fold, so no repository is on
 * both sides of a split. Repositories are shuffled with a seed, then dealt to the smallest fold.
 */
export function groupedFolds<T extends { repo: string }>(
  rows: readonly T[],
  k: number,
  seed: number,
): number[] {
  const repos = [...new Set(rows.map((r) => r.repo))].sort();
  const random = rng(seed);
  for (let i = repos.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [repos[i], repos[j]] = [repos[j]!, repos[i]!];
  }
  const size = new Array<number>(k).fill(0);
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.repo, (count.get(r.repo) ?? 0) + 1);
  const foldOf = new Map<string, number>();
  for (const repo of repos) {
    let best = 0;
    for (let f = 1; f < k; f++) if (size[f]! < size[best]!) best = f;
    foldOf.set(repo, best);
    size[best]! += count.get(repo)!;
  }
  return rows.map((r) => foldOf.get(r.repo)!);
}
