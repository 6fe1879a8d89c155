/** The public texts the ask is measured and fitted on, and how its labels are keyed (ask-label.ts, fit-ask.ts). */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { load as loadHadoop } from "./duplicates-protocol.js";
import { loadPublicTexts } from "./public-texts.js";

/** A reader's pick for one text: candidates by hash of their sentence, so a changed reading reads as unlabeled. */
export interface AskLabel {
  best: string | null;
  ok: string[];
  unlisted: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));

/** A text's key in every file of verdicts, picks and annotations: the first 16 hex of its title and description's hash. */
export const textKey = (title: string, description: string) =>
  createHash("sha256").update(`${title}\u0000${description}`).digest("hex").slice(0, 16);
export const candidateKey = (sentence: string) =>
  createHash("sha256").update(sentence).digest("hex").slice(0, 10);

/** The texts' keys a file of verdicts, picks or annotations in scripts/eval holds (none where it is absent). */
export function keysIn(...files: string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    const p = resolve(here, f);
    if (existsSync(p)) for (const k of Object.keys(JSON.parse(readFileSync(p, "utf8")) as object)) out.add(k);
  }
  return out;
}

export interface PoolText {
  key: string;
  repo: string;
  title: string;
  description: string;
}

/**
 * The development texts (the corpus's development part, NLBSE'24's training split) and, with `hadoop`, Apache
 * Hadoop's Jira reports (../shared/benchmarks/duplicates: another tracker's style, one repository for the
 * cross-validation's grouping); undefined without ../shared.
 */
export function askPool(options: { hadoop?: boolean } = {}): PoolText[] | undefined {
  const texts = loadPublicTexts();
  if (!texts) return undefined;
  const hadoop = options.hadoop
    ? (loadHadoop()?.reports.map((r) => ({ repo: "apache/hadoop", title: r.title, description: r.body })) ??
      [])
    : [];
  return [...texts, ...hadoop].map((t) => ({
    repo: t.repo,
    title: t.title,
    description: t.description,
    key: textKey(t.title, t.description),
  }));
}

/** Texts in a seeded order (by a hash of `${seed}:${key}`): the same seed and pool give the same sample. */
export function seededOrder<T extends { key: string }>(texts: readonly T[], seed: string): T[] {
  const rank = (key: string) => createHash("sha256").update(`${seed}:${key}`).digest("hex");
  return [...texts].sort((a, b) => (rank(a.key) < rank(b.key) ? -1 : 1));
}

/** A sample for readers, dealt into `parts` files (DIR/part-K.txt) of blocks, one per text. */
export function writeParts<T>(
  dir: string,
  sample: readonly T[],
  parts: number,
  block: (t: T) => string,
): void {
  mkdirSync(dir, { recursive: true });
  for (let k = 0; k < parts; k++)
    writeFileSync(
      resolve(dir, `part-${k}.txt`),
      sample
        .filter((_, i) => i % parts === k)
        .map(block)
        .join("\n"),
    );
}
