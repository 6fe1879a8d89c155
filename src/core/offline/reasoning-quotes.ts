/**
 * Quotes that stand in the text, for the personas' sentences (reasoning.ts): each quote is checked against the text
 * (case, spacing and markdown marks aside) and shown cut at a word. Pure.
 */
import { QUOTE_SHOWN } from "./read-evidence.js";

// Runs of white space become one space; a lone space is already one, so only the other runs are replaced (the
// same text, without a replacement for every word of a long description).
export const norm = (s: string) =>
  s
    .replace(/ \s+|[^\S ]\s*/g, " ")
    .trim()
    .toLowerCase();
/** The text as a reader checks a quote against it: case, spacing and markdown marks aside. */
export const checkable = (s: string) => norm(s).replace(/[*_`#>]/g, "");

/** Whether every part of a quote (parts split at "…") stands in the text. */
export function standsIn(quote: string, text: string): boolean {
  const parts = checkable(quote)
    .replace(/…|\.\.\./g, "  ")
    .split(/\s{2,}/)
    .map((x) => x.trim().replace(/[.,;:!?]+$/, ""))
    .filter((x) => x.length > 2);
  return parts.length > 0 && parts.every((x) => text.includes(x));
}

/** A quote as shown: cut at a word, its closing full stop left to the sentence around it. */
export function q(text: string, max = QUOTE_SHOWN): string {
  let t = text;
  if (t.length > max) {
    const cut = t.slice(0, max - 1);
    const space = cut.lastIndexOf(" ");
    t = `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.(]+$/, "")}…`;
  }
  return `“${t.replace(/\.\s*$/, "")}”`;
}
