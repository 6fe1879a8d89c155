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
import {
  ASKS_WORD_RE,
  CAUSE_RE,
  CJK_REQUEST_RE,
  GREETING_PREFIX_RE,
  IMPERATIVE_RE,
  KIND_NAMED_RE,
  LEAD_IN_RE,
  PASTE_LEAD_IN_RE,
  PLACEHOLDER_RE,
  POINTER_RE,
  PROBLEM_RE,
  PROMPT_RE,
  QUESTION_RE,
  REQUEST_RE,
} from "./ask-patterns.js";
import { paragraphs, quotedParagraphs, SEARCH_QUERY_RE } from "./ask-paragraphs.js";
import { countWords } from "./markdown-lines.js";
import { FIRST_PERSON_RE, isAside, TEMPLATE_VOICE_RE, TRACKER_NOTICE_RE } from "./prose.js";
import { readMarkdown, type MarkdownText } from "./read-markdown.js";

/** The longest ask, "…" included. */
export const ASK_MAX = 240;
/** How much of a sentence is searched for a cue. */
const CUE_CHARS = 400;

interface Sentence {
  text: string;
  /** 0: under a heading that announces the ask; 1: no heading or another heading. */
  tier: 0 | 1;
  /** In a numbered list: a step, whose imperative verb is not a request. */
  step: boolean;
}

/** Words that end with a period but do not end a sentence. */
const ABBREVIATION_RE =
  /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|mr|mrs|ms|dr|st|no|fig|ver|v)\.|\b[A-Z]\.)$/i;

export function sentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i]!;
    if (c === "。" || c === "！" || c === "？") {
      out.push(paragraph.slice(start, i + 1));
      start = i + 1;
      continue;
    }
    if (c !== "." && c !== "!" && c !== "?") continue;
    const next = paragraph[i + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    // A capital's period ("J. Smith") is an initial within a line; at a line's end it ends a sentence ("… by the
    // matrix A." and then a list of shapes).
    if (
      c === "." &&
      ABBREVIATION_RE.test(paragraph.slice(Math.max(start, i - 8), i + 1)) &&
      !(next === "\n" && /\b[A-Z]\.$/.test(paragraph.slice(Math.max(start, i - 2), i + 1)))
    )
      continue;
    // Several marks end one sentence ("…?!", "...").
    out.push(paragraph.slice(start, i + 1));
    start = i + 1;
  }
  if (start < paragraph.length) out.push(paragraph.slice(start));
  return out.map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** The sentence without a greeting before the ask ("Hi team, the export fails …" → "the export fails …"). */
function withoutGreeting(sentence: string): string {
  const m = GREETING_PREFIX_RE.exec(sentence);
  return m ? sentence.slice(m[0].length) : sentence;
}

/** Whether a sentence is the author's prose at all: words, not code, a link, a prompt or boilerplate. */
export function isProse(sentence: string): boolean {
  // Words outside inline code and links: "`bitcoin-cli sendtoaddress …` or …" is a command, not a sentence.
  // (Each replacement only where its mark is in the sentence: most sentences have neither code nor links.)
  const code = sentence.includes("`");
  const link = sentence.includes("http");
  let spoken = code ? sentence.replace(/`[^`]*`/g, " ") : sentence;
  if (link) spoken = spoken.replace(/\bhttps?:\/\/\S+/g, " ");
  const words = countWords(spoken);
  if (words < 4) return false;
  let bare = code ? sentence.replace(/`[^`]*`/g, "") : sentence;
  if (bare.includes("](")) bare = bare.replace(/\]\([^)\s[\]]{0,2000}\)/g, "]");
  if (link) bare = bare.replace(/\bhttps?:\/\/\S+/g, "");
  const marks = bare.match(/[/\\_=<>{}()[\]#^$|;]/g)?.length ?? 0;
  if (marks > bare.length * 0.08 && marks > 3) return false;
  if (/\.\w{1,4}:\d+|#include\b/.test(sentence)) return false;
  // Error output pasted as text ("ERROR TypeError: Cannot read property …").
  if (/^\W*(?:[A-Z]{3,}\s+)?[\w.]*(?:Error|Exception)\b\s*:/.test(sentence)) return false;
  if (
    PROMPT_RE.test(sentence) ||
    KIND_NAMED_RE.test(sentence) ||
    PLACEHOLDER_RE.test(sentence) ||
    TEMPLATE_VOICE_RE.test(sentence)
  )
    return false;
  // Mostly letters and spaces: code, paths and logs are mostly not.
  const letters = sentence.match(/[\p{L}\s]/gu)?.length ?? 0;
  if (letters < sentence.length * 0.7) return false;
  if (/^\s*(?:https?:\/\/|www\.)\S+\s*$/i.test(sentence)) return false;
  // A table row pasted without its leading "|" ("API | params -- | -- tf.add | inputs …").
  if ((sentence.match(/\s\|\s/g)?.length ?? 0) >= 3) return false;
  // A label and a link ("Merge with test case: https://…"): a reference, not a request in the author's words.
  if (/^[^.!?]{0,80}:\s*(?:https?:\/\/|www\.)\S+\s*$/i.test(sentence)) return false;
  // A search query a template filled in ("… in:title is:issue is:open repo:org/name").
  if (SEARCH_QUERY_RE.test(sentence)) return false;
  // A line of code or markup that slipped through ("const x = 1;", "<div …>").
  if (
    /^[<{[(]|[;{}]\s*$|^\s*(?:import|from|def|class|function|const|let|var|return|public|private)\b\s*[\w{(]/.test(
      sentence,
    )
  )
    return false;
  return true;
}

/**
 * A markdown link inside a sentence: quoting it would quote its markup. Its address runs across no "[" or "]" (see
 * MD_LINK_RE): read from every "](", an address that could run on read 64 KiB of "中](" in 0.5 s.
 */
const LINKED_RE = /\]\([^)\s[\]]{1,2000}\)/;
/** A sentence opened by a clause of reason, time or condition, up to its comma. */
const SUBORDINATE_RE =
  /^(?:because|since|as|while|although|though|given that|now that)\b[^,;.!?]{3,200},\s*/i;

/** A sentence that ends with a bare address ("I want to drop the fields deprecated in https://…"): the words. */
function withoutTrailingLink(sentence: string): string {
  const m = /\s+(?:https?:\/\/|www\.)\S+\s*$/.exec(sentence);
  if (!m) return sentence;
  const words = sentence.slice(0, m.index);
  // "This should have been fixed with https://…": the address is the sentence's object; without it, a fragment.
  if (/\b(?:with|in|by|at|from|to|of|see|via|for|on|and|or|the|a|an)\s*$/i.test(words)) return sentence;
  return countWords(words) >= 4 ? words.replace(/[\s,;:(–—-]+$/u, "") : sentence;
}

/** What a sentence does, by its cue: asks for something, reports a problem, asks a question; or null. */
export type AskCue = "request" | "problem" | "question";

/**
 * The cue that makes a sentence an ask, read as findAsk reads it: in its opening words (what runs on past them is
 * output glued to the prose), in the main clause after a clause of reason ("Because we want it light, we set …"
 * is background), and for a lead-in to a list or a paste ("create a test.cc:", "the following error is returned:")
 * only a request of its own: two readings of 60 comments took such lead-ins for no ask.
 * `step`: an item of a numbered list, whose imperative verb is an instruction, not a request.
 */
export function askCue(sentence: string, step = false): AskCue | null {
  let head = sentence.length > CUE_CHARS ? sentence.slice(0, CUE_CHARS) : sentence;
  const clause = SUBORDINATE_RE.exec(head);
  if (clause) head = head.slice(clause[0].length);
  const request = REQUEST_RE.test(head) || CJK_REQUEST_RE.test(head);
  if (LEAD_IN_RE.test(sentence)) return request ? "request" : null;
  // A cause alone; "Because of this, the export fails" has its main clause after the comma, read above.
  if (!clause && !request && CAUSE_RE.test(sentence)) return null;
  if (POINTER_RE.test(sentence)) return null;
  // A question: a question word opens it (QUESTION_RE), or it ends with "?" and asks with a question word somewhere
  // ("… currentDidTimeout is false, what relationship between them, why does it return true?").
  if (QUESTION_RE.test(sentence) || (/[?？]\s*$/.test(sentence) && ASKS_WORD_RE.test(sentence)))
    return "question";
  if (request || (!step && IMPERATIVE_RE.test(head))) return "request";
  return PROBLEM_RE.test(head) ? "problem" : null;
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
  if (!description || !/[\p{L}]/u.test(description)) return null;
  const states = (c: Sentence) => askCue(c.text, c.step) !== null;
  // Under a heading that announces the ask: its first sentence with a cue, or else its first sentence (the
  // heading says what it is); elsewhere, the first sentence with a cue. Never under "expected behaviour": what the
  // author expects is not the problem reported (of the asks found there, maintainers' readings took 2 of 2 for
  // false and ask-eval 1 of 3). Each sentence is judged only while it could still be chosen.
  let firstUnderAsk: Sentence | undefined;
  const firstWithCue: (Sentence | undefined)[] = [undefined, undefined];
  let trackerSeen = false;
  const paras = paragraphs(md);
  const quoted = quotedParagraphs(paras.map((p) => p.text));
  for (const [pi, p] of paras.entries()) {
    if (quoted.has(pi)) continue;
    // What follows a lead-in to a paste ("… it throws following error:") is the paste, though it reads as words
    // (a message in a code block): a reader took such a message, shown as the ask, for false.
    if (pi > 0 && PASTE_LEAD_IN_RE.test(paras[pi - 1]!.text)) continue;
    // The tracker's notice ("This issue tracker is not for questions …") is no one's ask, in any of its sentences;
    // after it, its template goes on in its own voice ("1. It must be a bug, a feature request …"): only a
    // paragraph in the author's first person is the author's (as the author's sentences are read, segments.ts).
    if (TRACKER_NOTICE_RE.test(p.text)) trackerSeen = true;
    if (p.section === "other" || p.section === "expected" || TRACKER_NOTICE_RE.test(p.text)) continue;
    if (isAside(p.text)) continue;
    if (trackerSeen && !FIRST_PERSON_RE.test(p.text)) continue;
    const tier = p.section === "ask" ? 0 : 1;
    if (tier !== 0 && firstWithCue[tier]) continue;
    for (const raw of sentences(p.text)) {
      const c: Sentence = { text: withoutGreeting(raw).trim(), tier, step: p.step };
      if (!isProse(c.text)) continue;
      if (states(c)) {
        if (tier === 0) return clipAsk(c.text);
        firstWithCue[tier] = c;
        break;
      }
      if (
        tier === 0 &&
        !firstUnderAsk &&
        countWords(c.text) >= 6 &&
        !LEAD_IN_RE.test(c.text) &&
        !CAUSE_RE.test(c.text) &&
        !LINKED_RE.test(c.text) &&
        !SUBORDINATE_RE.test(c.text)
      )
        firstUnderAsk = c;
    }
  }
  const chosen = firstUnderAsk ?? firstWithCue[1];
  return chosen ? clipAsk(withoutTrailingLink(chosen.text)) : null;
}
