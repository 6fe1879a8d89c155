/**
 * The structural reading of a task, before any theme words: what kind of task the title says it is, how
 * severe a defect is, whether the description is the author's own text or an unfilled template, and what
 * evidence it carries (steps, traces, versions, numbers, acceptance criteria). These signals hold in any
 * project; the judge's numbers for them are fitted on real maintainers' decisions (see judge-model.ts).
 *
 * Every pattern here is linear: anchored alternations of literal words, no nested unbounded repeats.
 */
import { URL_RE } from "./prose.js";
import { demandIn } from "./evidence-patterns.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import {
  ACCEPT_RE,
  ACCIDENT_RE,
  BULK_RE,
  CHECKBOX_RE,
  DEBT_ADD_RE,
  EMAIL_RE,
  EXPECTED_RE,
  HEADING_RE,
  HYPE_RE,
  MEASURED_RE,
  IMPERATIVE_RE,
  LINK_TEXT_RE,
  LIST_RE,
  NUMBERED_RE,
  OUT_OF_SCOPE_RE,
  PING_RE,
  PLACEHOLDER_RE,
  PLACEHOLDER_TITLE_RE,
  PROMPT_RE,
  REQUEST_RE,
  STEPS_HEAD_RE,
  VERSION_RE,
} from "./structure-patterns.js";
import { firstMatch, removesShortcut, readTitle } from "./read-title.js";
import { CJK_TEST, countWords, IMAGE_RE, LABEL_RE, QUOTE_LINE_RE } from "./markdown-lines.js";
import { type JunkReason, type TaskStructure } from "./task-structure.js";

/** Stands for a code block removed from the text (a control character: no description holds it as such). */
const CODE_MARK = "\u0001";
/** Stands for a picture removed from a line (a space to everything else). */
const IMAGE_MARK = "\u0002";

interface BodyReading {
  ownWords: number;
  ownText: string;
  templateLines: number;
  /** See TaskStructure.promptShare. */
  promptShare: number;
  ownLines: number;
  steps: boolean;
  code: boolean;
  screenshot: boolean;
  links: number;
  outOfScope: boolean;
  acceptance: boolean;
  taskList: number;
}

function readBody(md: MarkdownText): BodyReading {
  let code = false;
  // The author's code and logs are the author's text too (for promptShare).
  let codeChars = 0;
  let text = renderMarkdown(md, (block) => {
    code = true;
    codeChars += block.length;
    // A line of its own that stands for the block: it answers a heading above it ("## Logs").
    return `\n${CODE_MARK}\n`;
  });
  let screenshot = false;
  if (text.includes("![") || text.includes("<img")) {
    text = text.replace(IMAGE_RE, () => {
      screenshot = true;
      return IMAGE_MARK;
    });
  }
  let links = 0;
  // Link text is the linked page's words, not the author's claim: keep neither the text nor the address.
  if (text.includes("](")) {
    text = text.replace(LINK_TEXT_RE, () => {
      links++;
      return " ";
    });
  }
  if (text.includes("http") || text.includes("www.")) {
    text = text.replace(URL_RE, () => {
      links++;
      return " ";
    });
  }
  if (text.includes("@")) text = text.replace(EMAIL_RE, " ");

  let templateLines = 0;
  let ownLines = 0;
  let numbered = 0;
  let stepsHeading = false;
  let outOfScope = false;
  let inOutOfScope = false;
  let acceptance = false;
  let taskList = 0;
  const own: string[] = [];
  let openHeading = 0;
  // Characters of what is the template's and left unanswered, and of the author's own lines: "much of the
  // description is template text" is said by this share (a long paragraph is one line, but much text).
  let promptChars = 0;
  let ownChars = codeChars;
  const answer = () => {
    promptChars -= openHeading;
    openHeading = 0;
  };
  for (const rawLine of text.split("\n")) {
    const pictured = rawLine.includes(IMAGE_MARK);
    const line = (pictured ? rawLine.replaceAll(IMAGE_MARK, " ") : rawLine).trim();
    // A code block or a picture under a heading answers it ("### Proposed solution", then a screenshot).
    if (line === CODE_MARK || (pictured && line === "")) {
      answer();
      continue;
    }
    if (!line || !/[\p{L}\p{N}]/u.test(line)) {
      if (/^[-=*_]{3,}$/.test(line)) templateLines++;
      continue;
    }
    if (QUOTE_LINE_RE.test(line)) continue; // quoted text is someone else's words
    if (HEADING_RE.test(line)) {
      templateLines++;
      promptChars += line.length;
      openHeading = line.length;
      if (STEPS_HEAD_RE.test(line)) stepsHeading = true;
      if (ACCEPT_RE.test(line)) acceptance = true;
      inOutOfScope = OUT_OF_SCOPE_RE.test(line.replace(/^[#*_\s]+/, ""));
      if (inOutOfScope) outOfScope = true;
      continue;
    }
    if (OUT_OF_SCOPE_RE.test(line)) {
      // "Out of scope: payments, billing": the list names what the task is not.
      outOfScope = true;
      continue;
    }
    if (inOutOfScope && LIST_RE.test(line)) continue;
    let content = line;
    const label = LABEL_RE.exec(content);
    if (label) {
      templateLines++;
      promptChars += label[0].length;
      content = content.slice(label[0].length);
      if (!/[\p{L}\p{N}]/u.test(content)) continue;
    }
    if (CHECKBOX_RE.test(content)) {
      // A checklist of the template's own statements, ticked or not, is scaffolding; a task list the
      // author wrote is a plan. Both look alike, so only unticked items with prose count as the author's.
      const item = content.replace(CHECKBOX_RE, "").trim();
      if (!PROMPT_RE.test(item) && countWords(item) >= 2 && !/^i\b/i.test(item)) {
        taskList++;
        own.push(item);
        ownLines++;
        ownChars += item.length;
        answer();
      } else {
        templateLines++;
        // An unticked item of the author's own list ("- [ ] AWS") is the author's text all the same.
        if (!PROMPT_RE.test(item) && /^\W*\[ \]/.test(content)) ownChars += item.length;
        else promptChars += content.length;
      }
      continue;
    }
    if (PROMPT_RE.test(content) || PLACEHOLDER_RE.test(content)) {
      templateLines++;
      promptChars += content.length;
      continue;
    }
    if (NUMBERED_RE.test(content)) numbered++;
    if (STEPS_HEAD_RE.test(content)) stepsHeading = true;
    if (ACCEPT_RE.test(content)) acceptance = true;
    own.push(content);
    ownLines++;
    ownChars += content.length;
    answer();
  }
  const ownText = own.join("\n");
  return {
    ownWords: countWords(ownText),
    ownText,
    templateLines,
    promptShare: promptChars + ownChars === 0 ? 0 : Math.max(0, promptChars) / (promptChars + ownChars),
    ownLines,
    steps: numbered >= 2 && (stepsHeading || numbered >= 3),
    code,
    screenshot,
    links,
    outOfScope,
    acceptance: acceptance || taskList >= 2,
    taskList,
  };
}

/** What the analysis says of junk: advertising, and a note about the tracker itself (read-task.ts). */
export interface JunkFlags {
  spam: boolean;
  trackerNote: boolean;
}
const NO_FLAGS: JunkFlags = { spam: false, trackerNote: false };

/**
 * Read the task's structure. Pure and deterministic. The junk flags only overlay the reading (see withJunkFlags),
 * so the structure is read once and both the kind model (which reads it without them) and the judge use it.
 */
export function readStructure(
  title: string,
  description: string,
  flags: JunkFlags = NO_FLAGS,
  md: MarkdownText = readMarkdown(description),
): TaskStructure {
  return withJunkFlags(structureOf(title, description, md), flags);
}

/** Advertising or a tracker's note makes the task junk, whatever the title said. */
export function withJunkFlags(s: TaskStructure, flags: JunkFlags): TaskStructure {
  const junk: JunkReason | null = flags.spam ? "advertising" : flags.trackerNote ? "tracker_note" : null;
  if (!junk) return s;
  return {
    ...s,
    kind: "junk",
    kindCue: null,
    severity: null,
    severityCue: null,
    debt: null,
    debtCue: null,
    junk,
  };
}

/**
 * Whether the description says the shortcut is already there ("… the defaults are hard-coded.", "it is currently
 * copy-pasted"): the state the task starts from, not a shortcut it asks to take (a reader took "It adds technical
 * debt" for such a sentence as false).
 */
function describesState(text: string, shortcut: string): boolean {
  const at = text.toLowerCase().indexOf(shortcut.toLowerCase());
  return (
    at >= 0 &&
    /\b(?:is|are|was|were|been|being|currently|already|still)\s+(?:\w+\s+)?$/i.test(text.slice(0, at))
  );
}

function structureOf(title: string, description: string, md: MarkdownText): TaskStructure {
  const t = readTitle(title);
  const b = readBody(md);
  const versions = VERSION_RE.test(b.ownText) || /\b\d+\.\d+\.\d+\b/.test(description);
  const hype = b.ownText.match(HYPE_RE)?.length ?? 0;
  const measured = hype > 0 && MEASURED_RE.test(b.ownText.replace(HYPE_RE, " "));
  // A shortcut stated in the first lines of the description ("paste the helper into each package
  // instead of importing it") adds debt as surely as one in the title.
  const opening = b.ownText.slice(0, 300);
  const shortcut = t.kind !== "bug" && !t.debt ? firstMatch(DEBT_ADD_RE, opening) : null;
  const descDebt =
    shortcut && !removesShortcut(opening, shortcut) && !describesState(opening, shortcut) ? shortcut : null;
  if (descDebt) {
    t.kind = "refactor";
    t.debt = "adds";
    t.debtCue = descDebt;
  }
  const titleWithoutTag = t.body;

  // Code, output or a picture pasted under the headings is the author's own, however few the words.
  const unfilled =
    !b.code &&
    !b.screenshot &&
    ((b.templateLines >= 3 && b.ownWords < 10) ||
      (b.templateLines >= 5 && b.ownWords < 40 && b.templateLines >= 2 * b.ownLines));
  let junk: JunkReason | null = null;
  const letters = /[\p{L}]/u.test(titleWithoutTag);
  if (ACCIDENT_RE.test(title) || (b.ownWords <= 30 && ACCIDENT_RE.test(b.ownText))) junk = "accident_or_test";
  else if (!letters || /^(?:https?:\/\/|www\.)\S*$/i.test(titleWithoutTag))
    junk = t.tag && b.ownWords >= 15 ? null : "no_title";
  else if (PLACEHOLDER_TITLE_RE.test(titleWithoutTag)) junk = "placeholder_title";
  // An unfilled template under a title that says what the work is stays a (thin) task; under a title of a
  // word or two there is nothing to act on.
  else if (unfilled && t.words <= 3) junk = "unfilled_template";
  else if (
    t.words <= 1 &&
    !CJK_TEST.test(titleWithoutTag) &&
    // A one-word title over a template's scaffolding says no more than one over nothing.
    (b.ownWords < 15 || (!t.tag && (b.ownWords < 40 || b.templateLines >= 5)))
  )
    junk = "one_word_title";
  else if (t.words <= 2 && b.ownWords <= 5 && b.links === 0 && !t.tag) junk = "no_content";
  // A title of a few words and nothing else ("make it better", "it doesnt work"): nothing to act on yet.
  else if (t.words <= 4 && b.ownWords === 0 && b.links === 0 && !b.code && !b.screenshot) junk = "no_content";

  let kind = t.kind;
  // A status ping can sit in a one-line description under an ordinary title ("Update the plugin").
  if (!junk && b.ownWords <= 15 && PING_RE.test(b.ownText.trim())) kind = "ping";
  if (junk) kind = "junk";
  return {
    kind,
    kindCue: junk ? null : t.kindCue,
    severity: kind === "bug" || kind === "docs" ? t.severity : null,
    severityCue: kind === "bug" || kind === "docs" ? t.severityCue : null,
    debt: kind === "refactor" ? t.debt : null,
    debtCue: kind === "refactor" ? t.debtCue : null,
    bulk: BULK_RE.test(title) || BULK_RE.test(b.ownText),
    junk,
    titleTag: t.tag,
    titleTagKind: t.tagKind,
    titleVersion: VERSION_RE.test(t.body),
    titleQuestion: /[?？]\s*$/.test(title.trim()),
    titleChars: [...t.body].length,
    titleImperative: IMPERATIVE_RE.test(t.body),
    userRequest: REQUEST_RE.test(title) || REQUEST_RE.test(b.ownText.slice(0, 400)),
    questions: b.ownText.match(/[?？]/g)?.length ?? 0,
    titleWords: t.words,
    ownWords: b.ownWords,
    templateShare: b.templateLines + b.ownLines === 0 ? 0 : b.templateLines / (b.templateLines + b.ownLines),
    promptShare: b.promptShare,
    templateLines: b.templateLines,
    steps: b.steps,
    code: b.code,
    versions,
    // The same count of people the evidence quotes (evidence-patterns.ts), so what moves a persona is what it says.
    demand: demandIn(b.ownText) !== null,
    acceptance: b.acceptance,
    expected: EXPECTED_RE.test(b.ownText),
    screenshot: b.screenshot,
    links: b.links,
    hype,
    measured,
    outOfScope: b.outOfScope,
  };
}
