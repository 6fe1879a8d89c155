/**
 * The description in one markdown pass, as the author's sentences: what a reasoning may quote. Code and logs
 * (fenced or indented), quotes of someone else ("> …"), tables, HTML comments, images, checklists, headings and
 * labels, template prompts and placeholders, and the tracker's policy notes ("GitHub also notifies thousands of
 * people when issues are filed") are set apart and never quoted. Each sentence keeps the heading it stands under,
 * and its text is the description's own (markdown emphasis marks aside, line breaks read as spaces), so a quote
 * of it can be found in the text.
 *
 * Linear: one pass over at most MAX_CHARS characters, patterns anchored and bounded.
 */
import { AUTOMATED_HEADING_RE, pastedLines } from "./ask-paragraphs.js";
import { FIRST_PERSON_RE, isAside, POLICY_RE, TEMPLATE_VOICE_RE, TRACKER_NOTICE_RE } from "./prose.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { TEMPLATE_BOILERPLATE } from "./signals.js";
import {
  CHECKBOX_LINE_RE,
  IMAGE_RE,
  INDENTED_RE,
  LABEL_RE,
  LIST_MARK_RE,
  QUOTE_LINE_RE,
  TABLE_LINE_RE,
  WORD_RE,
} from "./markdown-lines.js";
import { PASTED_LOG_RE } from "./evidence-patterns.js";
import { HEADING_RE, PLACEHOLDER_RE } from "./structure-patterns.js";

export interface AuthorSentence {
  text: string;
  /** The heading above it, lower-case and without marks ("steps to reproduce"), or "" at the top. */
  section: string;
  /** It is an item of a list (a step, a point). */
  listItem: boolean;
}

/** Only the start of a long description is read for sentences to quote. */
const MAX_CHARS = 20_000;
/** The most sentences kept: a reasoning quotes one or two. */
const MAX_SENTENCES = 60;
/** How much of one paragraph is read, and the longest sentence kept (longer ones are lists or pasted output). */
const PARAGRAPH_CHARS = 4000;
const SENTENCE_CHARS = 600;
/** A quote holds at most this many characters; longer sentences are cut at a word and end with "…". */
export const SENTENCE_SHOWN = 160;

/** Where a code block stood: a control character, which no description holds as a line of its own. */
const CODE_LINE = "\u0001";
/** A line of source code's comment, pasted without a fence. */
const CODE_COMMENT_RE = /^\s*(?:\/\/|\/\*)/;
/** Sentences that hold markup are not quoted: a quote is words. */
const MARKUP_RE = /<\/?[a-z][^>]{0,80}>|\|/i;
/** Links and addresses are not words: they are left out of a quote, which shows "…" where they stood. */
const LINK_RE = /\[[^\][\n]{0,300}\]\([^)\n[]{0,500}\)|\bhttps?:\/\/\S+|\bwww\.\S+/gi;
export { POLICY_RE };
/**
 * A template's prompt, addressed to the reporter ("A clear and concise description of …", "Please provide …",
 * "If applicable, add screenshots"), or its empty answer. Narrower than the structure's prompts: an author's own
 * "If you open the menu, it closes" or "What is the best way to …?" is the author's.
 */
const PROMPT_RE =
  /^\W*(?:a clear and concise|a (?:short|brief|detailed|clear) description|describe (?:the|your|what|how|a|any|alternatives)\b|please (?:describe|provide|include|add (?:any|a|an|the) |explain|list|link|fill|search|check|note|make sure|read|attach|give|tell|share|complete|follow|do not|don'?t|confirm|ensure|mark|tick|review)\b|add any other|if applicable|(?:provide|include|list|paste|attach) (?:a|an|any|the|your|all|relevant)\b(?=.{0,120}\b(?:descri\w*|context|details?|information|info|screenshots?|steps|examples?|links?|versions?|logs?|output|code|snippets?|reproduc\w*|issue|problem|bug|behaviou?r|alternatives?|motivation|use ?cases?|summary)\b)|steps to reproduce the behaviou?r|is your (?:feature request|problem|request)|do you want to (?:request|report|file|submit)\b|one paragraph|fill (?:me|in|this|out)|replace this|delete this|_?no response_?\s*$|n\/a\s*$|none\.?\s*$|tbd\s*$|i (?:have |'ve )?(?:searched|checked|read|agree|confirm|made sure|verified)\b|(?:go to|click on|scroll down to) '\.{3}|(?:provide|include|paste|attach|share)\b[^.\n]{0,80}\b(?:help us|reproduce|example|logs?|details|information)\b)/i;
/** A template's field with its hint: "OS Platform and Distribution (e.g., Linux Ubuntu 16.04):". */
const FIELD_RE = /\((?:e\.g\.|ex\.|for example)|^[^.!?]{0,60}:\s*$/i;
/** A token of prose: letters, with at most a joining mark or a closing punctuation. */
const PROSE_TOKEN_RE = /^[("“'‘]?[\p{L}][\p{L}'’-]*[)"”'’]?[.,;:!?]?$/u;

/** Prose, not code or output pasted without a fence: most of its tokens are words. */
function prosy(sentence: string): boolean {
  const tokens = sentence.split(" ");
  let words = 0;
  for (const t of tokens) if (PROSE_TOKEN_RE.test(t)) words++;
  return words >= 4 && words >= tokens.length * 0.6;
}

function words(text: string): number {
  return text.match(WORD_RE)?.length ?? 0;
}

/** Bold marks are markup ("**not**" is "not"); everything else is the author's (`__source` keeps its underscores). */
function plain(text: string): string {
  let t = text.replace(/\*\*/g, "");
  if (t.includes("](") || t.includes("http") || t.includes("www.")) {
    const before = t;
    t = t
      .replace(LINK_RE, " … ")
      .replace(/(?:\s*…\s*)+/g, " … ")
      .replace(/^\s*…\s*|\s*…\s*$/g, "");
    // What is left around a link is often only its introduction ("Here is the link -"): too little to quote.
    if (t !== before && words(t) < 6) return "";
    // Two links or more taken out leave a sentence of gaps ("this is going to change with … who link at …").
    if ((t.match(/…/g)?.length ?? 0) >= 2) return "";
  }
  return t.replace(/\s+/g, " ").trim();
}

/** A template's prompt or placeholder, or the tracker's note: never the author's words. */
export function isTemplate(text: string): boolean {
  if (
    PROMPT_RE.test(text) ||
    PLACEHOLDER_RE.test(text) ||
    POLICY_RE.test(text) ||
    FIELD_RE.test(text) ||
    TEMPLATE_VOICE_RE.test(text)
  )
    return true;
  for (const re of TEMPLATE_BOILERPLATE) {
    re.lastIndex = 0;
    const m = re.exec(text);
    re.lastIndex = 0;
    if (m && m[0].length >= text.length * 0.5) return true;
  }
  return false;
}

/** A sentence cut to SENTENCE_SHOWN characters, at a word. */
export function shown(text: string): string {
  if (text.length <= SENTENCE_SHOWN) return text;
  const cut = text.slice(0, SENTENCE_SHOWN - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > 60 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/** Split a paragraph into sentences: a full stop, "!" or "?" and then a capital, a quote or a digit. */
function sentencesOf(paragraph: string): string[] {
  return paragraph.split(/(?<=[.!?])\s+(?=[\p{Lu}"“'‘`(\d])/u);
}

/** The author's sentences in the description, in order. */
export function authorSentences(description: string): AuthorSentence[] {
  return readSegments(readMarkdown(description)).sentences;
}

export interface Segments {
  sentences: AuthorSentence[];
  /** Headings with something of the author's under them (a line, a list, code), lower-case and without marks. */
  answered: string[];
}

/** One pass over the description: the author's sentences, and which headings the author answered. */
export function readSegments(md: MarkdownText): Segments {
  // Each code block stands as one line of its own: it ends a paragraph and answers the heading above it.
  const text = renderMarkdown(md, () => CODE_LINE, MAX_CHARS);
  const pasted = pastedLines(md, false);
  const out: AuthorSentence[] = [];
  let section = "";
  let paragraph: string[] = [];
  let paragraphChars = 0;
  let paragraphIsItem = false;
  let previousBlank = true;
  let trackerSeen = false;
  let inCheckbox = false;
  const answered: string[] = [];
  let open = "";
  const answer = () => {
    if (open) answered.push(open);
    open = "";
  };
  const flush = () => {
    if (paragraph.length === 0) return;
    // A paragraph's first few thousand characters hold more sentences than a reasoning quotes.
    let joined = paragraph.join(" ");
    if (joined.length > PARAGRAPH_CHARS) joined = joined.slice(0, PARAGRAPH_CHARS);
    paragraph = [];
    paragraphChars = 0;
    // A paragraph of the tracker's notice ("… are likely to be closed. We want to make sure you …") is the
    // tracker's throughout, not only in the sentence that gives it away.
    if (TRACKER_NOTICE_RE.test(joined)) {
      trackerSeen = true;
      return;
    }
    if (isAside(joined)) return;
    // After the tracker's notice, its template goes on in its own voice ("There are many online forums …"):
    // only a paragraph in the author's first person is the author's.
    if (trackerSeen && !FIRST_PERSON_RE.test(joined)) return;
    for (const raw of sentencesOf(joined)) {
      if (out.length >= MAX_SENTENCES) return;
      const s = plain(raw);
      if (s.length > SENTENCE_CHARS || words(s) < 4 || MARKUP_RE.test(s) || !prosy(s) || isTemplate(s))
        continue;
      out.push({ text: s, section, listItem: paragraphIsItem });
    }
  };
  for (const line of text.split("\n")) {
    if (out.length >= MAX_SENTENCES) break;
    if (line === CODE_LINE) {
      flush();
      answer();
      continue;
    }
    // A paragraph past what is read: its further lines are not classified.
    if (paragraphChars > PARAGRAPH_CHARS && line.trim()) continue;
    const blank = line.trim() === "";
    if (blank) {
      flush();
      previousBlank = true;
      inCheckbox = false;
      continue;
    }
    // Indented code after a blank line, quotes of someone else, tables and checklists are not the author's prose.
    if ((INDENTED_RE.test(line) && previousBlank && !LIST_MARK_RE.test(line)) || QUOTE_LINE_RE.test(line)) {
      flush();
      continue;
    }
    previousBlank = false;
    // A checklist item's indented continuation lines are the item's ("- [ ] There is a test …" and, under it,
    // "  Patch to opencv_extra has the same branch name."), as the ask's reader reads them.
    if (inCheckbox && /^\s/.test(line)) continue;
    inCheckbox = false;
    // A fence's line pasted again without one is output, not a sentence (pastedLines); so is a log's line pasted
    // without a fence ("WARNING:tensorflow:From …/ctc_ops.py:1514: … is deprecated") and a code comment ("//
    // Releases model resources if no longer used. model.close()"): readers took each, quoted as what the author
    // writes, for false.
    if ((pasted.size && pasted.has(line.trim())) || PASTED_LOG_RE.test(line) || CODE_COMMENT_RE.test(line)) {
      flush();
      continue;
    }
    if (TABLE_LINE_RE.test(line) || CHECKBOX_LINE_RE.test(line)) {
      flush();
      inCheckbox = CHECKBOX_LINE_RE.test(line);
      continue;
    }
    if (HEADING_RE.test(line)) {
      flush();
      section = line
        .replace(/^[\s#*_=-]+|[\s*_:=-]+$/g, "")
        .toLowerCase()
        .slice(0, 80);
      open = section;
      continue;
    }
    // What the tracker's form filled in itself ("Error message (automated)") is no one's sentence.
    if (AUTOMATED_HEADING_RE.test(section)) continue;
    if (open && /[\p{L}\p{N}]/u.test(line) && !isTemplate(line.replace(LIST_MARK_RE, "").trim())) answer();
    let content = line.includes("![") || line.includes("<img") ? line.replace(IMAGE_RE, " ") : line;
    const label = LABEL_RE.exec(content);
    if (label) {
      flush();
      content = content.slice(label[0].length);
    }
    const item = LIST_MARK_RE.exec(content);
    if (item) {
      flush();
      content = content.slice(item[0].length);
      paragraphIsItem = true;
    } else if (paragraph.length === 0) paragraphIsItem = false;
    // A line that was only a picture ends the paragraph: the words after it are another thought.
    if (!content.trim()) {
      flush();
      continue;
    }
    if (isTemplate(content.trim())) {
      flush();
      if (TRACKER_NOTICE_RE.test(content)) trackerSeen = true;
      continue;
    }
    // A paragraph past what is read takes no more lines.
    if (paragraphChars <= PARAGRAPH_CHARS) {
      paragraph.push(content.trim());
      paragraphChars += content.length + 1;
    }
  }
  flush();
  return { sentences: out, answered };
}
