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
  CJK_REQUEST_RE,
  GREETING_PREFIX_RE,
  IMPERATIVE_RE,
  PLACEHOLDER_RE,
  PROBLEM_RE,
  PROMPT_RE,
  QUESTION_RE,
  REQUEST_RE,
  SECTION_ASK_RE,
  SECTION_OTHER_RE,
} from "./ask-patterns.js";
import {
  CHECKBOX_LINE_RE,
  countWords,
  INDENTED_RE,
  LABEL_RE,
  LIST_MARK_RE,
  QUOTE_LINE_RE,
  TABLE_LINE_RE,
} from "./markdown-lines.js";
import { FIRST_PERSON_RE, TEMPLATE_VOICE_RE, TRACKER_NOTICE_RE } from "./prose.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";

/** The longest ask, "…" included. */
export const ASK_MAX = 240;
/** Only the start of a long description is read: the ask is stated early. */
const MAX_CHARS = 12_000;
/** How much of a sentence is searched for a cue. */
const CUE_CHARS = 400;

const HEADING_RE =
  /^\s{0,3}(?:#{1,6}(?:\s|$)|\*\*[^*\n]{1,150}\*\*\s*:?\s*$|__[^_\n]{1,150}__\s*:?\s*$|\*[^*\n]{1,150}[?:]\*\s*:?\s*$|_[^_\n]{1,150}[?:]_\s*:?\s*$|[-=*_]{3,}\s*$|[A-Z][^\s.!?:]*(?:[ \t]+[^\s.!?:]+){0,5}\s*:\s*$|<\/?(?:details|summary|h\d|p|div|br|b|strong)\b[^>]{0,200}>)/;
/** A bold label at a line's start ("**Describe the bug:** The app …"): the rest of the line is judged alone. */
/** A short plain label at a line's start ("Description: …", "Bug: …"). */
const PLAIN_LABEL_RE = /^\s*([A-Z][\p{L} '’/]{1,40}?)\s*:\s+(?=\S)/u;

/** A line that reads as code: a statement, a call, a declaration, an assignment. */
const CODE_LINE_RE =
  /^\s*(?:#include\b|import\s+[\w{*]|from\s+\S+\s+import\b|(?:def|class|function|fn|func|public|private|static|const|let|var|return)\s+[\w({[]|[\w.$[\]]+\s*(?:=|\+=|-=)\s*\S|[\w.$]+\([^)]*\)\s*;?\s*$|[{}]\s*$|.*;\s*$)/;

interface Sentence {
  text: string;
  /** 0: under a heading that announces the ask; 1: no heading or another heading; 2: under "expected". */
  tier: 0 | 1 | 2;
  /** In a numbered list: a step, whose imperative verb is not a request. */
  step: boolean;
}

type Section = "ask" | "expected" | "other" | "none";

const EXPECTED_HEADING_RE = /\bexpected\b|期望|预期/i;
/** Labels strong enough to open a section on a line of their own text ("Description: …", "Expected: …"). */
const STRONG_LABEL_RE =
  /^(?:description|summary|problem|issue description|bug description|motivation|current behaviou?r|actual behaviou?r|what happened|expected(?: behaviou?r| result)?|steps(?: to reproduce)?|environment|versions?|logs?|os|browser)$/i;

function sectionOf(heading: string): Section {
  if (AUTOMATED_HEADING_RE.test(heading)) return "other";
  const h = heading
    .replace(/<[^>]{0,200}>/g, " ")
    .replace(/[#*_:]+/g, " ")
    .trim();
  if (!/[\p{L}]/u.test(h)) return "none";
  // A pull request's checklist heading: its items are skipped one by one, the author's prose under it counts.
  if (/\bpull request\b|\bchecklist\b/i.test(h)) return "none";
  const other = SECTION_OTHER_RE.test(h);
  const ask = SECTION_ASK_RE.test(h);
  // "Describe the bug" before "steps": "Describe the solution you'd like" is an ask; "Expected behavior" isn't.
  if (ask && !(other && !/describe|problem|summary|description|motivation|what happened/i.test(h)))
    return "ask";
  if (EXPECTED_HEADING_RE.test(h)) return "expected";
  if (other) return "other";
  return "none";
}

/** A code block that holds prose (templates that put "Current behaviour" in a shell block): read as prose. */
function isProseBlock(body: string): boolean {
  const lines = body.split("\n").filter((l) => l.trim());
  if (lines.length === 0) return false;
  if (/https?:\/\//.test(body) || SEARCH_QUERY_RE.test(body)) return false;
  const text = lines.join(" ");
  if (countWords(text) < 6) return false;
  const letters = text.match(/[\p{L}\s]/gu)?.length ?? 0;
  if (letters < text.length * 0.88) return false;
  return lines.every(
    (l) =>
      !CODE_LINE_RE.test(l) && !/^\s*(?:at |File "|Traceback|\$ |% |>>> |\w+(?:Error|Exception)\b)/.test(l),
  );
}

/** A code block masked out (its lines left blank), except the fences of a block of prose, whose lines are read. */
function maskBlock(block: string): string {
  const nl = block.indexOf("\n");
  const close = block.lastIndexOf("\n");
  if (nl > 0 && close > nl && isProseBlock(block.slice(nl + 1, close))) {
    const blank = (t: string) => t.replace(/[^\n]/g, "\n");
    return blank(block.slice(0, nl)) + block.slice(nl, close + 1) + blank(block.slice(close + 1));
  }
  return block.replace(/[^\n]/g, "\n");
}

/** Two search qualifiers or more ("is:issue", "in:title", "repo:…"): a query string, not prose. */
const SEARCH_QUERY_RE =
  /\b(?:is|in|repo|label|author|org|user|state|type):["\w][^\s]*(?:\s+\S+){0,12}?\s+(?:is|in|repo|label|author|org|user|state|type):["\w]/i;

/** A heading the tracker's form fills in itself ("Error message (automated)"): nothing under it is the author's. */
export const AUTOMATED_HEADING_RE = /\(automated\)|\bauto-?(?:generated|filled)\b/i;

/** A shell prompt opens a command whose output follows until a blank line. */
const COMMAND_RE = /^\s*(?:\$|%|>>>|PS [A-Z]:\\[^>]{0,100}>|C:\\[^>]{0,100}>)\s/;

/** Paragraphs of the author's prose, each with the section it stands in. */
export function paragraphs(md: MarkdownText): { text: string; section: Section; step: boolean }[] {
  const text = renderMarkdown(md, maskBlock, MAX_CHARS);
  const out: { text: string; section: Section; step: boolean }[] = [];
  let section: Section = "none";
  let current: string[] = [];
  let step = false;
  let prevBlank = true;
  let inList = false;
  let inOutput = false;
  let inCheckbox = false;
  const flush = () => {
    if (current.length) out.push({ text: current.join("\n"), section, step });
    current = [];
    step = false;
  };
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      prevBlank = true;
      inOutput = false;
      inCheckbox = false;
      continue;
    }
    // A checklist item's continuation lines are the item's.
    if (inCheckbox && /^\s/.test(line)) continue;
    inCheckbox = false;
    if (inOutput || COMMAND_RE.test(line)) {
      flush();
      inOutput = true;
      continue;
    }
    if (INDENTED_RE.test(line) && prevBlank && !inList) {
      // Indented code: a block of its own after a blank line, not a list's continuation.
      flush();
      continue;
    }
    prevBlank = false;
    if (QUOTE_LINE_RE.test(line) || TABLE_LINE_RE.test(line)) {
      flush();
      continue;
    }
    if (HEADING_RE.test(line)) {
      flush();
      // A rule (---) or a bare tag ends nothing: the section it sits in goes on.
      // A plain "Instructions for updating:" inside a log's or an environment's section is the paste's own line,
      // not a new section; a markdown heading always opens one.
      const plainLabel = !/^\s{0,3}(?:#|\*|_|<)/.test(line);
      const next: Section = /[\p{L}]/u.test(trimmed.replace(/<\/?\w+[^>]{0,200}>/g, ""))
        ? sectionOf(trimmed)
        : section;
      if (!(plainLabel && section === "other" && next === "none")) section = next;
      inList = false;
      continue;
    }
    if (CHECKBOX_LINE_RE.test(line)) {
      flush();
      inCheckbox = true;
      continue;
    }
    let content = trimmed;
    // A bold label ("**Describe the bug:** …") opens its section; bold words that start a sentence ("**Block
    // height** doesn't work") are the sentence's own.
    const label = LABEL_RE.exec(content);
    if (label && (label[0].includes(":") || sectionOf(label[0]) !== "none")) {
      flush();
      section = sectionOf(label[0]);
      content = content.slice(label[0].length);
    } else {
      // "Issue: …", "Expected behaviour: …": the label is left out; only a strong one opens a section.
      const plain = PLAIN_LABEL_RE.exec(content);
      const name = plain?.[1]!.trim() ?? "";
      if (plain && countWords(name) <= 3 && sectionOf(name) !== "none") {
        flush();
        if (STRONG_LABEL_RE.test(name) || sectionOf(name) !== "ask") section = sectionOf(name);
        content = content.slice(plain[0].length);
      }
    }
    const item = LIST_MARK_RE.exec(content);
    if (item) {
      flush();
      inList = true;
      step = /\d/.test(item[0]);
      content = content.slice(item[0].length);
    }
    if (content.trim()) current.push(content);
  }
  flush();
  return out;
}

/**
 * The paragraphs of a passage the author put in quotation marks, someone else's words quoted ("“The reason why …
 * \n\n … live with it.”"): the passage opens a paragraph with a quotation mark, has no other mark before its
 * closing one, and the closing one ends a paragraph (this one or a later one). A paragraph that only opens with a
 * quoted label ("“Save” does nothing") is the author's.
 */
export function quotedParagraphs(texts: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < texts.length; i++) {
    const first = texts[i]!.trimStart();
    if (!/^["“]/.test(first)) continue;
    for (let j = i; j < texts.length; j++) {
      const t = j === i ? first.slice(1) : texts[j]!;
      const mark = t.search(/["”]/);
      if (mark < 0) continue;
      if (/^["”][.!?]?\s*$/.test(t.slice(mark))) {
        for (let k = i; k <= j; k++) out.add(k);
        i = j;
      }
      break;
    }
  }
  return out;
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
  if (PROMPT_RE.test(sentence) || PLACEHOLDER_RE.test(sentence) || TEMPLATE_VOICE_RE.test(sentence))
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
/**
 * A lead-in to a list, a paste or an example ("… the following error is returned:", "… like this", "Here's my
 * configuration log"): it introduces what follows rather than stating the ask.
 */
const LEAD_IN_RE =
  /:\s*$|\b(?:like this|as follows|the following|below|this way)\s*[.:]?\s*$|^(?:below is|attached is)\b|\bhere(?:'s|’s| is| are) (?:my|the|a|an|our|some)\b/i;

export function askCue(sentence: string, step = false): AskCue | null {
  let head = sentence.length > CUE_CHARS ? sentence.slice(0, CUE_CHARS) : sentence;
  const clause = SUBORDINATE_RE.exec(head);
  if (clause) head = head.slice(clause[0].length);
  const request = REQUEST_RE.test(head) || CJK_REQUEST_RE.test(head);
  if (LEAD_IN_RE.test(sentence)) return request ? "request" : null;
  if (QUESTION_RE.test(sentence)) return "question";
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
  // heading says what it is); elsewhere, the first sentence with a cue; under "expected behaviour" only where
  // nothing else states one. Each sentence is judged only while it could still be chosen.
  let firstUnderAsk: Sentence | undefined;
  const firstWithCue: (Sentence | undefined)[] = [undefined, undefined, undefined];
  let trackerSeen = false;
  const paras = paragraphs(md);
  const quoted = quotedParagraphs(paras.map((p) => p.text));
  for (const [pi, p] of paras.entries()) {
    if (quoted.has(pi)) continue;
    // The tracker's notice ("This issue tracker is not for questions …") is no one's ask, in any of its sentences;
    // after it, its template goes on in its own voice ("1. It must be a bug, a feature request …"): only a
    // paragraph in the author's first person is the author's (as the author's sentences are read, segments.ts).
    if (TRACKER_NOTICE_RE.test(p.text)) trackerSeen = true;
    if (p.section === "other" || TRACKER_NOTICE_RE.test(p.text)) continue;
    if (trackerSeen && !FIRST_PERSON_RE.test(p.text)) continue;
    const tier = p.section === "ask" ? 0 : p.section === "expected" ? 2 : 1;
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
        !LINKED_RE.test(c.text) &&
        !SUBORDINATE_RE.test(c.text)
      )
        firstUnderAsk = c;
    }
  }
  const chosen = firstUnderAsk ?? firstWithCue[1] ?? firstWithCue[2];
  return chosen ? clipAsk(withoutTrailingLink(chosen.text)) : null;
}
