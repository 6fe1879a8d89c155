/**
 * The ask (`reading.ask`): the author's own sentence that states the request or the problem, quoted, or null
 * where the text has none. Pure and deterministic.
 *
 * How it reads: template prompts in HTML comments and code blocks are masked out (prose.ts's patterns), then
 * each line is told apart as a heading, a checklist item, a quote of someone else ("> …"), a table row,
 * indented code or the author's prose. Prose lines make paragraphs, paragraphs are split into sentences, and
 * the first sentence that states a request ("please add", "it would be nice", "I'd like", "should",
 * "support for", an imperative verb) or a problem ("fails", "crashes", "error", "doesn't work", "unable to"),
 * or asks a question ("how do I …?"), is the ask. Sentences under a heading that announces the ask ("Describe
 * the bug", "Is your feature request related to a problem?", "Summary", "Description", "Problem") come first,
 * and there the first real sentence counts even without a cue (the heading says what it is). Sentences under
 * headings for something else (steps, expected behaviour, environment, logs, alternatives, additional
 * context) never count. Greetings, thanks, template prompts and the tracker's boilerplate ("I searched
 * existing issues") never count.
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
import { CAUSE_RE, LEAD_IN_RE } from "./ask-patterns.js";
import { askCandidates, askCue, SUBORDINATE_RE, type AskCandidate } from "./ask-sentences.js";
import { countWords } from "./markdown-lines.js";
import { readMarkdown, type MarkdownText } from "./read-markdown.js";

/** The longest ask, "…" included. */
export const ASK_MAX = 240;

/**
 * A markdown link inside a sentence: quoting it would quote its markup. Its address runs across no "[" or "]" (see
 * MD_LINK_RE): read from every "](", an address that could run on read 64 KiB of "中](" in 0.5 s.
 */
const LINKED_RE = /\]\([^)\s[\]]{1,2000}\)/;

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
export function clipAsk(sentence: string): string {
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
 * `title` is not quoted (see the module's note); it is taken so that a sentence that only repeats it still
 * counts as the ask, and for future use.
 */
export function findAsk(
  title: string,
  description: string,
  md: MarkdownText = readMarkdown(description),
): string | null {
  void title;
  const cands = askCandidates(description, md);
  const i = ruleChoice(cands);
  if (i < 0) return null;
  const c = cands[i]!;
  return clipAsk(c.section === "ask" && askCue(c.text, c.step) ? c.text : withoutTrailingLink(c.text));
}

/**
 * The rules' choice among the candidates. Under a heading that announces the ask: its first sentence with a cue,
 * or else its first sentence (the heading says what it is); elsewhere, the first sentence with a cue. Never under
 * "expected behaviour": what the author expects is not the problem reported (of the asks found there,
 * maintainers' readings took 2 of 2 for false and ask-eval 1 of 3), nor under a heading for something else.
 */
export function ruleChoice(cands: readonly AskCandidate[]): number {
  let underAsk = -1;
  let withCue = -1;
  for (const [i, c] of cands.entries()) {
    if (c.section === "other" || c.section === "expected") continue;
    if (c.section !== "ask" && withCue >= 0) continue;
    if (askCue(c.text, c.step) !== null) {
      if (c.section === "ask") return i;
      withCue = i;
      continue;
    }
    if (
      c.section === "ask" &&
      underAsk < 0 &&
      countWords(c.text) >= 6 &&
      !LEAD_IN_RE.test(c.text) &&
      !CAUSE_RE.test(c.text) &&
      !LINKED_RE.test(c.text) &&
      !SUBORDINATE_RE.test(c.text)
    )
      underAsk = i;
  }
  return underAsk >= 0 ? underAsk : withCue;
}
