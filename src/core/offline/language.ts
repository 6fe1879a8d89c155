/**
 * Which language a task is written in. Only the author's prose counts: code, logs pasted in fences, links and
 * template comments are full of short words that are some language's commonest ("e", "com"), and once read 64
 * of 1,500 English reports as Portuguese. Words English shares ("no", "do", "OS") are not in the other lists.
 */
import { URL_RE } from "./prose.js";
import { renderMarkdown, type MarkdownText } from "./read-markdown.js";
import languages from "./words/languages.json" with { type: "json" };

/** Inline code, bare domains ("google.com") and "e.g.": short words that are not the author's language. */
const NOT_WORDS_RE =
  /`[^`\n]*`|(?<![\w.-])[\w.-]{1,100}\.(?:com|org|net|io|dev|app)\b|\b(?:e\.g|i\.e|etc)\./gi;

/** NOT_WORDS_RE without its bare domains, for text that names none (most): the domain alternative is its costly part. */
const NOT_WORDS_NO_DOMAIN_RE = /`[^`\n]*`|\b(?:e\.g|i\.e|etc)\./gi;
const DOMAIN_END_RE = /\.(?:com|org|net|io|dev|app)\b/i;

/** The title and the author's prose: what is left without code, links and template comments. */
function prose(title: string, md: MarkdownText): string {
  const text = `${title}\n${renderMarkdown(md, () => " ", SAMPLE_READ)}`.replace(URL_RE, " ");
  return text.replace(DOMAIN_END_RE.test(text) ? NOT_WORDS_RE : NOT_WORDS_NO_DOMAIN_RE, " ");
}

/** How much of the description is read (before code and links are taken out), and how much prose is weighed. */
const SAMPLE_READ = 4000;
const SAMPLE_CHARS = 2000;

/** Each language's commonest short words; a word may belong to several (Spanish and Portuguese share "que"). */
const STOP_WORDS: readonly (readonly [string, readonly string[]])[] = languages.stopWords.map(
  (l) => [l.language, l.words] as const,
);
const LANGUAGES_OF = new Map<string, number[]>();
STOP_WORDS.forEach(([, words], i) => {
  for (const w of words) LANGUAGES_OF.set(w, [...(LANGUAGES_OF.get(w) ?? []), i]);
});

/**
 * The text's language, from the first 2,000 characters of its prose: the script for Japanese, Korean, Chinese
 * and Russian, else the most frequent stop words. One pass over the characters and one over the words (it runs on every
 * report, so it must not rescan the text per language).
 */
export function language(title: string, md: MarkdownText): string {
  // Cut before cleaning: a 64 KB description costs what its first page costs.
  const sample = prose(title, md).slice(0, SAMPLE_CHARS);
  let ja = 0;
  let ko = 0;
  let zh = 0;
  let ru = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c >= 0x3040 && c <= 0x30ff) ja++;
    else if (c >= 0xac00 && c <= 0xd7af) ko++;
    else if (c >= 0x3400 && c <= 0x9fff) zh++;
    else if (c >= 0x0400 && c <= 0x04ff) ru++;
  }
  // The words are read once, lower-case: for the letter count (lower-casing keeps every letter a letter) and for
  // the stop words.
  // A run of letters and digits ("695af097c7bd…", "Win64") is a hash or a name, not a word: its letters ("af", "e")
  // would count as another language's commonest words (a commit hash read an English template as Portuguese).
  const words = sample.toLowerCase().match(/(?<![\p{L}\p{N}])\p{L}+(?![\p{L}\p{N}])/gu) ?? [];
  let letters = 0;
  for (const run of words) for (const _ of run) letters++;
  letters ||= 1;
  if (ja > 5) return "ja";
  if (ko / letters > 0.2) return "ko";
  if (zh / letters > 0.2) return "zh";
  if (ru / letters > 0.3) return "ru";
  const scores = STOP_WORDS.map(() => 0);
  for (const w of words) for (const i of LANGUAGES_OF.get(w) ?? []) scores[i]!++;
  // The first language with the highest count, as a stable sort of the candidates would give.
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  return scores[best]! > 0 ? STOP_WORDS[best]![0] : "en";
}
