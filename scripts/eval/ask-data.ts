/** The public texts the ask is measured and fitted on, and how its labels are keyed (ask-label.ts, fit-ask.ts). */
import { createHash } from "node:crypto";
import { load as loadHadoop } from "./duplicates-protocol.js";
import { loadPublicTexts } from "./public-texts.js";

/** A reader's pick for one text: candidates by hash of their sentence, so a changed reading reads as unlabeled. */
export interface AskLabel {
  best: string | null;
  ok: string[];
  unlisted: boolean;
}

export const textKey = (title: string, description: string) =>
  createHash("sha256").update(`${title}\u0000${description}`).digest("hex").slice(0, 16);
export const candidateKey = (sentence: string) =>
  createHash("sha256").update(sentence).digest("hex").slice(0, 10);

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
