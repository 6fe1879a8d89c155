/**
 * The index of every term the analysis looks for (concepts, spam, the tracker's notes), built once from the word
 * lists: exact first words, five-letter prefixes for "term*", and substring fragments for scripts without spaces.
 */
import { CONCEPTS, META_TERMS, NEGATORS, SPAM_FRAGMENTS, SPAM_TERMS, type Concept } from "./signals.js";

export type Kind = "concept" | "spam" | "meta";
export interface Entry {
  kind: Kind;
  tokens: string[];
  term: string;
  concept?: Concept;
  prefix?: boolean;
}

export const TOKEN_RE = /[\p{L}\p{N}]+|[.;:!?\n]/gu;
// Anything beyond Latin Extended-B: only then are the substring fragments worth searching for.
export const NON_LATIN_RE = /[\u0370-\u1fff\u2e80-\ud7ff\uf900-\ufdff\uff00-\uffef]/;
export const BOUNDARY = new Set([".", ";", ":", "!", "?", "\n"]);
export const PREFIX_KEY = 5;

/** Plural folding only: predictable, and the term lists spell out other forms. */
export function stem(word: string): string {
  const n = word.length;
  if (n <= 3 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  if (word.endsWith("ies") && n > 4) return word.slice(0, -3) + "y";
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (/(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

function splitTerm(term: string): string[] {
  return term
    .toLowerCase()
    .split(/[^\p{L}\p{N}*]+/u)
    .filter(Boolean)
    .map((t) => (t.endsWith("*") ? t : stem(t)));
}

export const exact = new Map<string, Entry[]>();
export const prefixed = new Map<string, Entry[]>();

function addEntry(kind: Kind, term: string, concept?: Concept): void {
  const tokens = splitTerm(term);
  const first = tokens[0];
  if (!first) return;
  const entry: Entry = { kind, tokens, term, ...(concept ? { concept } : {}) };
  if (tokens.length === 1 && first.endsWith("*")) {
    const stemText = first.slice(0, -1);
    if (stemText.length < PREFIX_KEY)
      throw new Error(`prefix term "${term}" needs at least ${PREFIX_KEY} letters`);
    entry.tokens = [stemText];
    entry.prefix = true;
    const key = stemText.slice(0, PREFIX_KEY);
    prefixed.set(key, [...(prefixed.get(key) ?? []), entry]);
    return;
  }
  exact.set(first, [...(exact.get(first) ?? []), entry]);
}

for (const concept of CONCEPTS) for (const term of concept.terms) addEntry("concept", term, concept);
for (const term of SPAM_TERMS) addEntry("spam", term);
for (const term of META_TERMS) addEntry("meta", term);
// Longest phrase first, so "dark mode" is tried before "dark".
for (const list of exact.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);

export const NEGATOR_SET = new Set(NEGATORS);
export const PREFIX_FIRST_CHARS = new Set([...prefixed.keys()].map((k) => k.charCodeAt(0)));
export const FRAGMENTS: { fragment: string; concept?: Concept; kind: "concept" | "spam" }[] = [
  ...CONCEPTS.flatMap((c) =>
    (c.fragments ?? []).map((fragment) => ({ fragment, concept: c, kind: "concept" as const })),
  ),
  ...SPAM_FRAGMENTS.map((fragment) => ({ fragment, kind: "spam" as const })),
];
