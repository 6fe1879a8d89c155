/**
 * The ask finder's reading of a description into paragraphs of the author's prose (find-ask.ts), each with the
 * section it stands in: headings and labels open sections (the ask's, "expected", another's), code blocks are masked
 * (a block of prose is read), and checklists, quotes, tables, indented code, commands with their output and passages
 * in quotation marks are left out. Pure.
 */
import { FILE_LINE_RE, SECTION_ASK_RE, SECTION_OTHER_RE } from "./ask-patterns.js";
import {
  CHECKBOX_LINE_RE,
  countWords,
  INDENTED_RE,
  LABEL_RE,
  LIST_MARK_RE,
  QUOTE_LINE_RE,
  TABLE_LINE_RE,
} from "./markdown-lines.js";
import { renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { STEPS_HEAD_RE } from "./structure-patterns.js";

/** Only the start of a long description is read: the ask is stated early. */
const MAX_CHARS = 12_000;

const HEADING_RE =
  /^\s{0,3}(?:#{1,6}(?:\s|$)|\*\*[^*\n]{1,150}\*\*\s*:?\s*$|__[^_\n]{1,150}__\s*:?\s*$|\*[^*\n]{1,150}[?:]\*\s*:?\s*$|_[^_\n]{1,150}[?:]_\s*:?\s*$|[-=*_]{3,}\s*$|[A-Z][^\s.!?:]*(?:[ \t]+[^\s.!?:]+){0,5}\s*:\s*$|<\/?(?:details|summary|h\d|p|div|br|b|strong)\b[^>]{0,200}>)/;
/** A bold label at a line's start ("**Describe the bug:** The app …"): the rest of the line is judged alone. */
/** A short plain label at a line's start ("Description: …", "Bug: …"). */
const PLAIN_LABEL_RE = /^\s*([A-Z][\p{L} '’/]{1,40}?)\s*:\s+(?=\S)/u;

/** A line that reads as code: a statement, a call, a declaration, an assignment. */
const CODE_LINE_RE =
  /^\s*(?:#include\b|import\s+[\w{*]|from\s+\S+\s+import\b|(?:def|class|function|fn|func|public|private|static|const|let|var|return)\s+[\w({[]|[\w.$[\]]+\s*(?:=|\+=|-=)\s*\S|[\w.$]+\([^)]*\)\s*;?\s*$|[{}]\s*$|.*;\s*$)/;

/**
 * "automated": a section the tracker's form fills in itself, no one's words (AUTOMATED_HEADING_RE); "named": under
 * a heading of another name (a form's "Website or app"); "none": no heading, or one without a name.
 */
export type Section = "ask" | "expected" | "other" | "automated" | "named" | "none";

/** A heading that opens no section of its own kind: a label in running text is the sentence's own. */
const opensNothing = (s: Section) => s === "none" || s === "named";

const EXPECTED_HEADING_RE = /\bexpected\b|期望|预期/i;
/** Labels strong enough to open a section on a line of their own text ("Description: …", "Expected: …"). */
const STRONG_LABEL_RE =
  /^(?:description|summary|problem|issue description|bug description|motivation|current behaviou?r|actual behaviou?r|what happened|expected(?: behaviou?r| result)?|steps(?: to reproduce)?|environment|versions?|logs?|os|browser)$/i;

function sectionOf(heading: string): Section {
  if (AUTOMATED_HEADING_RE.test(heading)) return "automated";
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
  return "named";
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
      !CODE_LINE_RE.test(l) &&
      !/^\s*(?:at |File "|Traceback|\$ |% |>>> |\w+(?:Error|Exception)\b)/.test(l) &&
      !OUTPUT_WORDS_RE.test(l) &&
      !pastedLine(l),
  );
}

/**
 * A line a tool wrote, not a sentence: columns split by a tab, a place in a file (FILE_LINE_RE), a constant's name
 * ("NP_NULL_ON_SOME_PATH"). A linter's report pasted in a fence was read as the author's ask. (A qualified name is
 * not one: "tf.keras.models.clone_model" stands in templates' prose blocks.)
 */
const pastedLine = (l: string) =>
  l.includes("\t") || FILE_LINE_RE.test(l) || /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+){2,}\b/.test(l);

/**
 * A line of a tool's output: a level tag opens it ("[ERROR] …", "WARN …") or it says what failed before a colon
 * ("Fatal error compiling: error: release version 1.8 not supported"): a paste, not the author's prose in a fence.
 */
const OUTPUT_WORDS_RE =
  /^\s*\[?(?:error|warn|warning|info|debug|fatal|trace|severe)\]?[\s:]|\b(?:error|warning|exception|fatal|failed|failure)\b[^:\n]{0,40}:/i;

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

/** How much of the fences' text is read for pasted lines. */
const PASTED_CHARS = 20_000;
/** Both readings of a text's pasted lines, made in one pass: every fence's, and only the fences of output. */
const pastedOf = new WeakMap<MarkdownText, { all: ReadonlySet<string>; output: ReadonlySet<string> }>();
const lineKey = (l: string): string | undefined => {
  const t = l.trim();
  return t.length >= 10 && /\p{L}/u.test(t) ? t : undefined;
};
/**
 * The lines that stand both in a fenced code block and outside every fence (trimmed; ten characters or more, with a
 * letter): the same output pasted twice, in a fence and again without one ("Didn't find op for builtin opcode …"),
 * not the author's sentence; readers took such a line, quoted as the ask and as "the author writes", for false. The
 * ask's reader drops both copies (a fence of prose is read as prose there, so the fenced copy would stand in).
 * `proseFences` false leaves out the fences of prose (isProseBlock): a form that renders the author's answer in a
 * block ("### Current Behaviour?" in a shell fence) beside the same words written above it, where the author's
 * sentences, which skip every fence, keep the copy outside. Both choices are read in one pass, once per text.
 */
export function pastedLines(md: MarkdownText, proseFences = true): ReadonlySet<string> {
  let read = pastedOf.get(md);
  if (!read) {
    // Each fenced line, and whether a fence of output (not prose) holds it.
    const fenced = new Map<string, boolean>();
    let chars = 0;
    for (const b of md.blocks) {
      if (chars >= PASTED_CHARS) break;
      const body = md.text.slice(b.bodyStart, Math.min(b.bodyEnd, b.bodyStart + PASTED_CHARS - chars));
      chars += body.length;
      const output = !isProseBlock(body);
      for (const l of body.split("\n")) {
        const k = lineKey(l);
        if (k) fenced.set(k, (fenced.get(k) ?? false) || output);
      }
    }
    const all = new Set<string>();
    const outputOnly = new Set<string>();
    if (fenced.size)
      for (const l of renderMarkdown(md, () => "").split("\n")) {
        const k = lineKey(l);
        const output = k === undefined ? undefined : fenced.get(k);
        if (output === undefined) continue;
        all.add(k!);
        if (output) outputOnly.add(k!);
      }
    read = { all, output: outputOnly };
    pastedOf.set(md, read);
  }
  return proseFences ? read.all : read.output;
}

/** Two search qualifiers or more ("is:issue", "in:title", "repo:…"): a query string, not prose. */
export const SEARCH_QUERY_RE =
  /\b(?:is|in|repo|label|author|org|user|state|type):["\w][^\s]*(?:\s+\S+){0,12}?\s+(?:is|in|repo|label|author|org|user|state|type):["\w]/i;

/** A heading the tracker's form fills in itself ("Error message (automated)"): nothing under it is the author's. */
export const AUTOMATED_HEADING_RE = /\(automated\)|\bauto-?(?:generated|filled)\b/i;

/** A shell prompt opens a command whose output follows until a blank line. */
const COMMAND_RE = /^\s*(?:\$|%|>>>|PS [A-Z]:\\[^>]{0,100}>|C:\\[^>]{0,100}>)\s/;

/** Paragraphs of the author's prose, each with the section it stands in. */
export function paragraphs(md: MarkdownText): { text: string; section: Section; step: boolean }[] {
  const text = renderMarkdown(md, maskBlock, MAX_CHARS);
  const pasted = pastedLines(md);
  const out: { text: string; section: Section; step: boolean }[] = [];
  let section: Section = "none";
  let current: string[] = [];
  let step = false;
  let prevBlank = true;
  let inList = false;
  let inOutput = false;
  let inCheckbox = false;
  // Under a heading for steps ("### Repro steps"), each line is a step, numbered or not ("Use the latest DevTools
  // with Electron 18"): an imperative there says what to do to see the problem, not what is asked (a reader took one,
  // shown as the ask, for false).
  let stepsSection = false;
  const flush = () => {
    if (current.length) out.push({ text: current.join("\n"), section, step: step || stepsSection });
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
    // A fence's line pasted again without one is output, not a sentence (pastedLines).
    if (pasted.size && pasted.has(trimmed)) {
      flush();
      continue;
    }
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
      if (!(plainLabel && (section === "other" || section === "automated") && opensNothing(next))) {
        section = next;
        stepsSection = STEPS_HEAD_RE.test(trimmed);
      }
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
    if (label && (label[0].includes(":") || !opensNothing(sectionOf(label[0])))) {
      flush();
      section = sectionOf(label[0]);
      stepsSection = STEPS_HEAD_RE.test(label[0]);
      content = content.slice(label[0].length);
    } else {
      // "Issue: …", "Expected behaviour: …": the label is left out; only a strong one opens a section.
      const plain = PLAIN_LABEL_RE.exec(content);
      const name = plain?.[1]!.trim() ?? "";
      if (plain && countWords(name) <= 3 && !opensNothing(sectionOf(name))) {
        flush();
        if (STRONG_LABEL_RE.test(name) || sectionOf(name) !== "ask") {
          section = sectionOf(name);
          stepsSection = STEPS_HEAD_RE.test(name);
        }
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
