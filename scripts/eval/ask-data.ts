/** The public texts the ask is measured and fitted on, and how its labels are keyed (ask-label.ts, fit-ask.ts). */
import { createHash } from "node:crypto";
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

/** The development texts (the corpus's development part, NLBSE'24's training split), or undefined without ../shared. */
export function askPool(): PoolText[] | undefined {
  return loadPublicTexts()?.map((t) => ({
    repo: t.repo,
    title: t.title,
    description: t.description,
    key: textKey(t.title, t.description),
  }));
}
