/**
 * The ask (`reading.ask`): the author's own sentence that states the request or the problem, quoted, or null
 * where the text has none. Pure and deterministic.
 *
 * How it reads: template prompts in HTML comments and code blocks are masked out (prose.ts's patterns), then
 * each line is told apart as a heading, a checklist item, a quote of someone else ("> …"), a table row,
 * indented code or the author's prose (ask-paragraphs.ts). Prose lines make paragraphs, paragraphs are split into
 * sentences, and each sentence that reads as prose is a candidate (ask-sentences.ts), with the section it stands in
 * (under a heading that announces the ask, "expected behaviour", something else, or none). Greetings, thanks,
 * template prompts, the tracker's boilerplate and what the form fills in itself are never candidates.
 *
 * Which candidate: a ranker fitted on readers' picks (ask-rank.ts) scores each by what it says (a request, a
 * problem, a question; scene-setting, a cause, a pointer) and where it stands (its section, its place, the words
 * it shares with the title), and the top one is the ask when it scores above the model's bar; otherwise null.
 *
 * Quoting: the sentence is the description's own text. A leading list mark, a bold label ("**Describe the
 * bug**") and a greeting opening the sentence ("Hi team, …") are left out; the quote is otherwise exact,
 * except that a sentence wrapped over lines has its line breaks (any run of whitespace) shown as one space.
 * So `ask` (without a final "…") is always a substring of the description with its whitespace runs collapsed
 * to single spaces. At most ASK_MAX characters: longer sentences are cut at a word and end with "…".
 *
 * The title is never the ask: every surface shows the title already, so where the description states no
 * request or problem the ask is null rather than a repeat of the title.
 */
import { rankAsk } from "./ask-rank.js";
import { askCandidates } from "./ask-sentences.js";
import { countWords } from "./markdown-lines.js";
import { readMarkdown, type MarkdownText } from "./read-markdown.js";

/** The longest ask, "…" included. */
export const ASK_MAX = 240;

/** A sentence that ends with a bare address ("I want to drop the fields deprecated in https://…"): the words. */
function withoutTrailingLink(sentence: string): string {
  const m = /\s+(?:https?:\/\/|www\.)\S+\s*$/.exec(sentence);
  if (!m) return sentence;
  const words = sentence.slice(0, m.index);
  // "This should have been fixed with https://…": the address is the sentence's object; without it, a fragment.
  if (/\b(?:with|in|by|at|from|to|of|see|via|for|on|and|or|the|a|an)\s*$/i.test(words)) return sentence;
  return countWords(words) >= 4 ? words.replace(/[\s,;:(–—-]+$/u, "") : sentence;
}

/** At most ASK_MAX characters (UTF-16 code units, as JSON Schema's maxLength counts), cut at a word with "…". */
function clipAsk(sentence: string): string {
  if (sentence.length <= ASK_MAX) return sentence;
  let cut = sentence.slice(0, ASK_MAX - 1);
  // Never half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(" ");
  // Text without spaces (Chinese, Japanese) is cut at a character.
  if (space > ASK_MAX / 2) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:–—-]+$/u, "")}…`;
}

/**
 * The author's sentence that states the request or the problem, or null where the description has none.
 * `title` is not quoted (see the module's note); the ranker reads the words a sentence shares with it.
 */
export function findAsk(
  title: string,
  description: string,
  md: MarkdownText = readMarkdown(description),
): string | null {
  const cands = askCandidates(description, md);
  const i = rankAsk(title, cands);
  return i < 0 ? null : clipAsk(withoutTrailingLink(cands[i]!.text));
}
