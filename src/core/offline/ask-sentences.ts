/**
 * The sentences that could be the ask (`reading.ask`, find-ask.ts): the author's prose read into paragraphs
 * (ask-paragraphs.ts), split into sentences, each kept if it reads as prose (not code, a link, a prompt or
 * boilerplate), with what it does by its cue (askCue) and where it stands. Pure.
 */
import {
  ASKS_WORD_RE,
  CAUSE_RE,
  CJK_REQUEST_RE,
  FILE_LINE_RE,
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
import { paragraphs, quotedParagraphs, SEARCH_QUERY_RE, type Section } from "./ask-paragraphs.js";
import { countWords } from "./markdown-lines.js";
import { FIRST_PERSON_RE, isAside, TEMPLATE_VOICE_RE, TRACKER_NOTICE_RE } from "./prose.js";
import { readMarkdown, type MarkdownText } from "./read-markdown.js";

/** How much of a sentence is searched for a cue. */
const CUE_CHARS = 400;

/** Words that end with a period but do not end a sentence. */
const ABBREVIATION_RE =
  /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|mr|mrs|ms|dr|st|no|fig|ver|v)\.|\b[A-Z]\.)$/i;

function sentences(paragraph: string): string[] {
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
function isProse(sentence: string): boolean {
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
  // Counted by what a replace leaves out: no array of matches per sentence (this runs on every sentence read).
  const marks = bare.length - bare.replace(/[/\\_=<>{}()[\]#^$|;]+/g, "").length;
  if (marks > bare.length * 0.08 && marks > 3) return false;
  // A place in a file ("main.py:12", a Python traceback's frame) or an include.
  if (FILE_LINE_RE.test(sentence) || /#include\b/.test(sentence)) return false;
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
  const letters = sentence.length - sentence.replace(/[\p{L}\s]+/gu, "").length;
  if (letters < sentence.length * 0.7) return false;
  if (/^\s*(?:https?:\/\/|www\.)\S+\s*$/i.test(sentence)) return false;
  // A table row pasted without its leading "|" ("API | params -- | -- tf.add | inputs …").
  if ((sentence.match(/\s\|\s/g)?.length ?? 0) >= 3) return false;
  // A label and a link ("Merge with test case: https://…"): a reference, not a request in the author's words.
  if (/^[^.!?]{0,80}:\s*(?:https?:\/\/|www\.)\S+\s*$/i.test(sentence)) return false;
  // A search query a template filled in ("… in:title is:issue is:open repo:org/name").
  if (SEARCH_QUERY_RE.test(sentence)) return false;
  // A fragment: it stops on a word that needs more ("… rather than use delete API or rm command, when", "… plugin
  // support of" before a list), cut by a stray blank line or leading into what follows.
  if (FRAGMENT_END_RE.test(sentence)) return false;
  // A line of code or markup that slipped through ("const x = 1;", "<div …>").
  if (
    /^[<{[(]|[;{}]\s*$|^\s*(?:import|from|def|class|function|const|let|var|return|public|private)\b\s*[\w{(]/.test(
      sentence,
    )
  )
    return false;
  return true;
}

const FRAGMENT_END_RE =
  /\b(?:of|to|the|a|an|and|or|nor|when|if|that|which|with|for|from|in|on|at|by|as|than|but|because|while|where|whether|into|like|such|via|per|is|are|was|were|be|its|their|our|my|your)\s*$/i;

/**
 * A sentence opened by a clause of reason, time or condition, up to its comma; the main clause after it is what the
 * sentence says ("Due to the new law, we need a consent banner", "The reason is that I export nightly, so please add
 * a CSV option").
 */
export const SUBORDINATE_RE =
  /^(?:because|since|as|while|although|though|given that|now that|due to|as a result of|caused by|the reason (?:is|was|being)|this is because)\b[^,;.!?]{3,200},\s*/i;

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
  return askSignals(sentence, step).cue;
}

/** What askCue reads of a sentence, each pattern tested once: the cue, and the signals the ranker weighs too. */
export interface AskSignals {
  cue: AskCue | null;
  request: boolean;
  problem: boolean;
  imperative: boolean;
  leadIn: boolean;
  cause: boolean;
  pointer: boolean;
}

export function askSignals(sentence: string, step = false): AskSignals {
  let head = sentence.length > CUE_CHARS ? sentence.slice(0, CUE_CHARS) : sentence;
  const clause = SUBORDINATE_RE.exec(head);
  if (clause) head = head.slice(clause[0].length);
  const cause = CAUSE_RE.test(sentence);
  // A sentence that is a cause throughout ("Because I need to use the GPU to compute a lot of data."): the need it
  // names is the reason for the ask, not the ask (a reader took one, shown as the ask, for false). With a main clause
  // after the cause ("Because of this, we need …"), the clause is read.
  const request = !(cause && !clause) && (REQUEST_RE.test(head) || CJK_REQUEST_RE.test(head));
  const problem = PROBLEM_RE.test(head);
  const imperative = IMPERATIVE_RE.test(head);
  const leadIn = LEAD_IN_RE.test(sentence);
  const pointer = POINTER_RE.test(sentence);
  const signals = { request, problem, imperative, leadIn, cause, pointer };
  let cue: AskCue | null;
  if (leadIn) cue = request ? "request" : null;
  // A cause alone; "Because of this, the export fails" has its main clause after the comma, read above.
  else if (!clause && !request && cause) cue = null;
  else if (pointer) cue = null;
  // A question: a question word opens it (QUESTION_RE), or it ends with "?" and asks with a question word somewhere
  // ("… currentDidTimeout is false, what relationship between them, why does it return true?").
  else if (QUESTION_RE.test(sentence) || (/[?？]\s*$/.test(sentence) && ASKS_WORD_RE.test(sentence)))
    cue = "question";
  else if (request || (!step && imperative)) cue = "request";
  else cue = problem ? "problem" : null;
  return { cue, ...signals };
}

/** A sentence that could be the ask, with where it stands: what the ask's ranker reads (ask-rank.ts). */
export interface AskCandidate {
  /** The sentence as it would be quoted (greeting left out, whitespace runs as one space). */
  text: string;
  section: Section;
  /** An item of a numbered list. */
  step: boolean;
  /** Its paragraph's place among the author's paragraphs, and its own place in that paragraph (from 0). */
  paragraph: number;
  inParagraph: number;
  /** Its place among all candidates (from 0). */
  order: number;
}

/**
 * At most this many candidates are read: the ask is stated early (of 882 readers' picks, 99% are among the first 10
 * candidates and 3 beyond the 20th), and each candidate's features cost the ranker a few µs.
 */
const MAX_CANDIDATES = 20;

/**
 * Every sentence of the author's prose that could be the ask, in order: the paragraphs the finder reads (quotes,
 * pastes after a lead-in, the tracker's notices and asides left out), each sentence that reads as prose.
 */
export function askCandidates(
  description: string,
  md: MarkdownText = readMarkdown(description),
): AskCandidate[] {
  const out: AskCandidate[] = [];
  if (!description || !/[\p{L}]/u.test(description)) return out;
  let trackerSeen = false;
  const paras = paragraphs(md);
  const quoted = quotedParagraphs(paras.map((p) => p.text));
  let kept = 0;
  for (const [pi, p] of paras.entries()) {
    if (quoted.has(pi)) continue;
    if (pi > 0 && PASTE_LEAD_IN_RE.test(paras[pi - 1]!.text)) continue;
    if (TRACKER_NOTICE_RE.test(p.text)) {
      trackerSeen = true;
      continue;
    }
    if (p.section === "automated" || isAside(p.text)) continue;
    if (trackerSeen && !FIRST_PERSON_RE.test(p.text)) continue;
    let inParagraph = 0;
    for (const raw of sentences(p.text)) {
      const text = withoutGreeting(raw).trim();
      if (!isProse(text)) continue;
      out.push({ text, section: p.section, step: p.step, paragraph: kept, inParagraph, order: out.length });
      inParagraph++;
      if (out.length >= MAX_CANDIDATES) return out;
    }
    if (inParagraph > 0) kept++;
  }
  return out;
}
