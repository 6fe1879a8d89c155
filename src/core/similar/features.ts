/**
 * What an issue is compared by (issue 32): the words of its title and of the author's own text, and character
 * n-grams of them. Template prompts (HTML comments), fenced code, links' targets and bare URLs are left out (the
 * same regular expressions as every other reader of the text, src/core/offline/prose.ts). Pure: no I/O.
 */
import { MD_LINK_RE, replaceFences, URL_RE, withoutPrompts } from "../offline/prose.js";

export interface FeatureOptions {
  /** How many times a title's word counts (the body's count once). */
  titleWeight: number;
  /** Leave fenced code out (the author's prose only). */
  dropCode: boolean;
  /** Also index the parts of camelCase and snake_case identifiers ("FSDownload" → fs, download). */
  splitIdentifiers: boolean;
  /** A version ("3.4.1") is one word, not three digits too short to count: 3.4.0 and 3.4.1 differ. */
  versions: boolean;
  /** A light plural stemmer ("jars" → "jar"). */
  stem: boolean;
  /** Leave out English function words. */
  stopwords: boolean;
  /** Character n-gram sizes (none: []), of the words of `ngramSource`, each word padded with "_". */
  ngrams: readonly number[];
  ngramSource: "title" | "all";
  /**
   * Two adjacent words of the title also as one ("Bouncy Castle" → bouncycastle, "journal node" → journalnode):
   * a name written as one word in one report and as two in another still matches.
   */
  compounds: boolean;
  /**
   * A link's last path part is kept in place of the whole address (…/detail/CVE-2020-26939 → CVE-2020-26939,
   * …/browse/PROJ-123 → PROJ-123): two reports linking the same advisory or upstream issue share it.
   */
  urlTails: boolean;
}

export const DEFAULT_FEATURES: FeatureOptions = {
  titleWeight: 2,
  dropCode: true,
  splitIdentifiers: false,
  versions: false,
  stem: false,
  stopwords: false,
  ngrams: [],
  ngramSource: "title",
  compounds: false,
  urlTails: false,
};

/** Term counts of one issue, by space: words, and character n-grams (and what the re-ranker compares, rerank.ts). */
export interface IssueFeatures {
  words: Map<string, number>;
  chars: Map<string, number>;
  /** The title's tokens alone, as written (lower case; no stop words left out, no stemming). */
  title: Map<string, number>;
  /**
   * Code the author pasted or named: identifiers (camelCase, snake_case, dotted names and stack frames' methods),
   * exception and error class names, and error messages (digits and hex as 0), as terms.
   */
  code: Map<string, number>;
}

/** At most this much of a body is read (a pasted log of megabytes says no more than its first 32 KiB). */
export const MAX_BODY_CHARS = 32_768;
const MAX_TITLE_CHARS = 512;

/** The author's own text: no template prompts, no fenced code (unless kept), link texts without their targets. */
export function authorText(body: string, dropCode = true, urlTails = false): string {
  let text = withoutPrompts(body.slice(0, MAX_BODY_CHARS));
  // Fenced blocks as every reader reads them (only when `dropCode`: the shipped method keeps code).
  if (dropCode) text = replaceFences(text, () => "\n");
  if (!urlTails) return text.replace(MD_LINK_RE, "$1").replace(URL_RE, " ");
  return text
    .replace(
      MD_LINK_RE,
      (link: string, label: string) => `${label} ${urlTail(link.slice(label.length + 3, -1))}`,
    )
    .replace(URL_RE, (url) => ` ${urlTail(url)} `);
}

/** A URL's last path part ("" for a bare host), without its query, fragment and trailing punctuation. */
export function urlTail(url: string): string {
  const path = url.replace(/[?#].*$/s, "").replace(/[)\].,;:!'"]+$/, "");
  const parts = path.split("/").filter(Boolean);
  return parts.length > 2 || (parts.length === 2 && !/^https?:$/i.test(parts[0]!)) ? parts.at(-1)! : "";
}

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could do does did for from has have had he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this those to too us was we were " +
    "what when where which while who why will with would you your should also just only any all some more most other " +
    "such very am after before about again against between both each few here off once out over own same under up down"
  ).split(" "),
);

const WORD_RE = /[\p{L}\p{N}]+/gu;
const VERSION_OR_WORD_RE = /\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+/gu;

function words(text: string, o: FeatureOptions): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(o.versions ? VERSION_OR_WORD_RE : WORD_RE)) {
    const raw = m[0];
    push(raw.toLowerCase());
    if (o.splitIdentifiers && /[a-z][A-Z]|[A-Z]{2}[a-z]|\p{L}\p{N}|\p{N}\p{L}/u.test(raw)) {
      const parts = raw
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
        .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_, a, b, c, d) => `${a ?? c} ${b ?? d}`)
        .split(" ");
      for (const part of parts) push(part.toLowerCase());
    }
  }
  return out;

  function push(w: string) {
    if (w.length < 2 || w.length > 40) return;
    if (o.stopwords && STOPWORDS.has(w)) return;
    if (o.stem && w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !/\p{N}/u.test(w))
      w = w.slice(0, -1);
    out.push(w);
  }
}

function addGrams(
  into: Map<string, number>,
  ws: readonly string[],
  sizes: readonly number[],
  weight: number,
) {
  for (const w of ws) {
    const padded = `_${w}_`;
    for (const n of sizes) {
      if (padded.length < n) continue;
      for (let i = 0; i + n <= padded.length; i++) {
        const g = padded.slice(i, i + n);
        into.set(g, (into.get(g) ?? 0) + weight);
      }
    }
  }
}

/** Two adjacent letter-only words of a title joined (each 2+ letters), lower case: "Bouncy Castle" → bouncycastle. */
export function compoundsOf(title: string): string[] {
  const ws = title.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const out: string[] = [];
  for (let i = 0; i + 1 < ws.length; i++) {
    const [a, b] = [ws[i]!, ws[i + 1]!];
    if (/^\p{L}{2,}$/u.test(a) && /^\p{L}{2,}$/u.test(b) && a.length + b.length <= 40) out.push(a + b);
  }
  return out;
}

/** The term counts of an issue (title and body as GitHub gives them). */
export function issueFeatures(
  title: string,
  body: string,
  o: FeatureOptions = DEFAULT_FEATURES,
): IssueFeatures {
  const titleWords = words(title.slice(0, MAX_TITLE_CHARS), o);
  const bodyWords = words(authorText(body, o.dropCode, o.urlTails), o);
  const wordCounts = new Map<string, number>();
  for (const w of titleWords) wordCounts.set(w, (wordCounts.get(w) ?? 0) + o.titleWeight);
  if (o.compounds)
    for (const c of compoundsOf(title.slice(0, MAX_TITLE_CHARS)))
      wordCounts.set(c, (wordCounts.get(c) ?? 0) + o.titleWeight);
  for (const w of bodyWords) wordCounts.set(w, (wordCounts.get(w) ?? 0) + 1);
  // The title's tokens as written (lower case, one-character ones too: "CentOS 7" and "CentOS 8" differ).
  const titleCounts = new Map<string, number>();
  for (const m of title.slice(0, MAX_TITLE_CHARS).matchAll(VERSION_OR_WORD_RE)) {
    const t = m[0].toLowerCase();
    titleCounts.set(t, (titleCounts.get(t) ?? 0) + 1);
  }
  const chars = new Map<string, number>();
  if (o.ngrams.length > 0) {
    addGrams(chars, titleWords, o.ngrams, o.ngramSource === "title" ? 1 : o.titleWeight);
    if (o.ngramSource === "all") addGrams(chars, bodyWords, o.ngrams, 1);
  }
  return {
    words: wordCounts,
    chars,
    title: titleCounts,
    code: codeTerms(`${title}\n${authorText(body, false)}`),
  };
}

/** Identifiers: dotted names (a.b.C, File.java), camelCase and PascalCase with an inner capital, snake_case. */
const IDENT_RE =
  /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z$]*[a-z][A-Z][\w$]*|[A-Z]{2,}[a-z][\w$]*|[A-Za-z]\w*_\w+/g;
/**
 * A run of the characters an identifier is made of: IDENT_RE's matches never cross its ends, so it is read one
 * run at a time. A run of BLOB_CHARS or more is a blob (base64, a hash, minified code), not identifiers, and is
 * not read: IDENT_RE backtracks over a long run from each of its letters (32 KiB of "a" took 6.5 s).
 */
const RUN_RE = /[\w$.]+/g;
const BLOB_CHARS = 1000;
/** An error message: what follows an exception's or error's name and a colon, to the end of its line. */
const ERROR_LINE_RE = /\b(?:[A-Z]\w*(?:Exception|Error)|ERROR|FATAL|error|fatal)\s*:\s*([^\n]{8,200})/g;

/** The code terms of a text: identifiers (and each dotted name's last two parts) and error messages. */
export function codeTerms(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (t: string) => out.set(t, (out.get(t) ?? 0) + 1);
  const sample = text.slice(0, MAX_BODY_CHARS);
  for (const run of sample.matchAll(RUN_RE)) {
    if (run[0].length < 4 || run[0].length >= BLOB_CHARS) continue;
    for (const m of run[0].matchAll(IDENT_RE)) {
      const raw = m[0].replace(/\.+$/, "");
      if (raw.length < 4 || raw.length > 160) continue;
      const id = raw.toLowerCase();
      add(id);
      const parts = id.split(".");
      // A stack frame's class and method (org.apache.x.FileSystem.get → filesystem.get): the same frame
      // whatever package prefix or line number a paste shows.
      if (parts.length > 2) add(parts.slice(-2).join("."));
    }
  }
  for (const m of sample.matchAll(ERROR_LINE_RE)) {
    const message = m[1]!
      .toLowerCase()
      .replace(/0x[0-9a-f]+|\d+/g, "0")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 100);
    if (message.length >= 8) add(`!${message}`);
  }
  return out;
}
