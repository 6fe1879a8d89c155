import { createHash } from "node:crypto";

/**
 * The untouched holdout, fixed before any choice was made: a quarter of the labeled corpus's repositories,
 * by a seeded hash of the repository's name (so it is the same on every machine and never depends on the
 * rows' order), plus the whole NLBSE'24 test split. Fitting and choosing use the rest only; the holdout is
 * read once, at the end, by `npm run eval -- --holdout`.
 */
const SEED = "task-scorer-holdout-2026-11-24";

export function isHoldoutRepo(repo: string): boolean {
  return createHash("sha256").update(`${SEED}:${repo}`).digest()[0]! < 64;
}

export const development = <T extends { repo: string }>(rows: readonly T[]) =>
  rows.filter((r) => !isHoldoutRepo(r.repo));
export const holdout = <T extends { repo: string }>(rows: readonly T[]) =>
  rows.filter((r) => isHoldoutRepo(r.repo));
