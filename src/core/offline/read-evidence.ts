/**
 * What the author gave, each piece with the author's own words: a reasoning that relies on a piece of
 * evidence quotes it, so a reader can check it. Pure and deterministic; each finder looks at lines of the
 * description (template prompts in HTML comments removed) and returns the first quote it finds.
 */
import { EVIDENCE_TYPES, type EvidenceType } from "../contract.js";
import {
  ACCEPT_LABEL_RE,
  ACTUAL_SHOWN_RE,
  BARE_VERSION_RE,
  demandIn,
  ERROR_INTRO_RE,
  ERROR_QUOTED_RE,
  EXAMPLE_RE,
  EXPECTED_INLINE_GATE_RE,
  EXPECTED_INLINE_RE,
  EXPECTED_LABEL_RE,
  EXPECTED_SAID_RE,
  IMAGE_RE,
  INLINE_FENCE_RE,
  LIST_ITEM_RE,
  NAMED_FAILURE_RE,
  OUTPUT_LINE_RE,
  PROSE_STEPS_RE,
  STEPS_HEAD_RE,
  STEPS_INLINE_RE,
  STEP_ITEM_RE,
  TASK_ITEM_RE,
  TEMPLATE_ITEM_RE,
  TEMPLATE_OFFER_RE,
  THREAD_STATE_RE,
  TRACE_GATE_RE,
  TRACE_RE,
  VERSION_FIELD_RE,
  VERSION_RE,
  isTrace,
} from "./evidence-patterns.js";
import {
  codeLine,
  codeStatement,
  echoesSource,
  looksLikeCode,
  unfencedCodeLine,
  withoutEchoedSource,
} from "./code-lines.js";
import { countWords } from "./markdown-lines.js";
import { MD_LINK_RE, TEMPLATE_VOICE_RE } from "./prose.js";
import { lineBefore, readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { POLICY_RE } from "./segments.js";

export { EVIDENCE_TYPES, type EvidenceType } from "../contract.js";

export interface Evidence {
  type: EvidenceType;
  quote: string;
}

const QUOTE_MAX = 140;
/** How much of a quote a persona's reasoning shows (the reading keeps up to QUOTE_MAX). */
export const QUOTE_SHOWN = 80;

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= QUOTE_MAX ? t : `${t.slice(0, QUOTE_MAX - 1).trimEnd()}…`;
}

/** The sentence of `line` that holds `index` (a quote is a whole thought, not a fragment). */
function sentenceAround(line: string, index: number): string {
  const before = line.slice(0, index);
  const start = Math.max(before.lastIndexOf(". "), before.lastIndexOf("! "), before.lastIndexOf("? "));
  const rest = line.slice(index);
  const endRel = rest.search(/[.!?](?:\s|$)/);
  return line.slice(start < 0 ? 0 : start + 2, endRel < 0 ? line.length : index + endRel + 1);
}

/**
 * The words that hold a match at `index` (`length` long): its line or its sentence, and where that is too long
 * to quote whole, a window that starts shortly before the match, so that the quote always shows what was found
 * (a version, a count of people), never only the sentence's opening.
 */
function quoteAt(line: string, index: number, length: number, unit: "line" | "sentence"): string {
  // What a reasoning shows of the quote must hold the match.
  const fits = (end: number) => end <= QUOTE_SHOWN - 1;
  if (unit === "line" && fits(index + length)) return line;
  const sentence = sentenceAround(line, index);
  const at = sentence.indexOf(line.slice(index, index + length));
  if (at < 0 || fits(at + length)) return sentence;
  let start = Math.max(0, at - 30);
  // From a word's start, not its middle.
  while (start > 0 && /\S/.test(sentence[start - 1]!)) start--;
  return start === 0 ? sentence : `…${sentence.slice(start)}`;
}

/** The next line with text after `i`, or undefined. */
function nextText(lines: readonly string[], i: number): string | undefined {
  for (let k = i + 1; k < lines.length; k++)
    if (lines[k]!.trim() && !isFence(lines[k]!)) return lines[k]!.trim();
  return undefined;
}

const IMPORT_LINE_RE =
  /^\s*(?:import\b|from\s+\S+\s+import\b|#\s*include\b|using\s+[\w.]+;|(?:const|let|var)\s+\w+\s*=\s*require\(|require\(|use\s+[\w:]+;|package\s+[\w.]+;?\s*$)/;
/** Pasted markup's opening tag ("<html xmlns:o=…>", "<?xml …>", "<!DOCTYPE html>"): no code to start from. */
const MARKUP_OPENING_RE = /^\s*<(?:[?!]|html\b|head\b|body\b|meta\b|table\b|div\b|style\b)/i;
const LABEL_ONLY_RE = /^[\p{L}\s/]{0,40}:\s*$|^Traceback \(most recent call last\):?\s*$/u;

/**
 * Whether a quote says nothing a reader could use as its type's evidence: an import line as code, a label alone
 * ("Expected behavior:"), a traceback's first line. The reading keeps it (the judge's features count what was
 * found); the comment and the personas do not quote it.
 */
export function saysNothing(type: EvidenceType, quote: string): boolean {
  return (
    LABEL_ONLY_RE.test(quote.trim()) ||
    (type === "code" && (IMPORT_LINE_RE.test(quote) || MARKUP_OPENING_RE.test(quote)))
  );
}

const TRACEBACK_RE = /Traceback \(most recent call last\)/;
/** The line a Python traceback ends on: the exception and its message ("ValueError: …"). */
const EXCEPTION_LINE_RE = /^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)\b/;

/**
 * The quote for a trace found at lines[at]: a Python traceback's own first line says nothing, so its exception
 * line is quoted instead (the last one within the next 80 lines), or the first line where there is none.
 */
function exceptionAfter(lines: readonly string[], at: number): string {
  const first = lines[at]!.replace(/^\s*>\s?/, "").trim();
  if (!TRACEBACK_RE.test(first)) return first;
  let found: string | undefined;
  for (let j = at + 1; j < Math.min(lines.length, at + 80); j++) {
    const line = lines[j]!.replace(/^\s*>\s?/, "");
    if (line.startsWith(FENCE_MARK)) break;
    if (EXCEPTION_LINE_RE.test(line) && !/^\s/.test(line)) found = line.trim();
  }
  return found ?? first;
}

/** Where a code block stood in the prose: a line of its own, so that what comes right before it can be read. */
const FENCE_MARK = "\u0001";
const isFence = (line: string) => line.startsWith(FENCE_MARK);

/** A line that asks, before a checklist: its items are the answer's options ("… when it's safe to call it:"). */
const OPTIONS_LEAD_RE =
  /\?[\s*_:]*$|\b(?:which|whether|when|what|asking|choose|select|pick)\b[^\n]{0,160}:[\s*_]*$/i;
/** A lead-in or heading that puts the list after it out of the task ("Moved out:", "### Out of scope", "Later"). */
const OUT_OF_SCOPE_LEAD_RE =
  /^[#*_\s]*(?:moved out|out of scope|not in scope|non[- ]goals?|won['’]?t (?:do|fix|be done)|not planned|deferred|postponed|later|future (?:work|ideas?)|follow[- ]ups?|nice to haves?|removed from (?:scope|this))\b[^\n]{0,40}?[\s*_:：]*$/i;
/** A template's empty answer. */
const EMPTY_ANSWER_RE = /^(?:_?no response_?|n\/a|none|-|\.\.\.|…)$/i;
const isHeading = (line: string) => /^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*$)/.test(line);

/** The evidence in a description, at most one quote of each type, in EVIDENCE_TYPES order. */
export function readEvidence(
  title: string,
  description: string,
  md: MarkdownText = readMarkdown(description),
): Evidence[] {
  const found = new Map<EvidenceType, string>();
  const put = (type: EvidenceType, quote: string) => {
    // A heading's marks are markup, not the author's words ("## Acceptance criteria", "**Acceptance:**" are
    // quoted without them); nothing else is touched (a quote of code keeps its "**").
    const q = clip(quote.replace(/^\s*#{1,6}\s+/, "").replace(/^\s*\*\*([^*\n]{1,60})\*\*/, "$1"));
    if (!found.has(type) && /[\p{L}\p{N}]/u.test(q)) found.set(type, q);
  };
  const firstWithText = (lines: readonly string[]) => lines.find((l) => /[\p{L}\p{N}]/u.test(l)) ?? "";

  // Code blocks: a stack trace or error output, code, or neither (a log, a link, prose in a fence).
  let blockVersion: string | undefined;
  let blockIndex = 0;
  const prose = renderMarkdown(md, (_block, body) => {
    const lines = body.split("\n");
    // The block a template offers the reporter ("You can obtain the TensorFlow version with:" and its command): the
    // template's example, not the author's code (readers took it, quoted as "Code:", for false).
    const offered = TEMPLATE_OFFER_RE.test(lineBefore(md, md.blocks[blockIndex++]?.start ?? 0));
    // A statement of source code that names an exception (`CV_LOG_WARNING(NULL, "… C++ exception is raised");`,
    // `@Throws(IOException::class)`) is code, not output.
    // A thread dump's stacks ("java.lang.Thread.State: BLOCKED", then its frames) show where threads stand, not an
    // error: with no exception named outside a frame, its frames are not error output (a reader took one, quoted as
    // "Error output", for false).
    const threadDump =
      lines.some((l) => THREAD_STATE_RE.test(l)) && !lines.some((l) => NAMED_FAILURE_RE.test(l));
    const at = threadDump ? -1 : lines.findIndex((l) => isTrace(l) && !codeStatement(l));
    // A Python trace's own line is its exception ("AttributeError: …"), wherever the paste starts.
    const exception =
      at >= 0 ? lines.slice(at).findLast((l) => EXCEPTION_LINE_RE.test(l) && !/^\s/.test(l)) : undefined;
    if (exception) put("trace", exception.trim());
    else if (at >= 0) put("trace", exceptionAfter(lines, at));
    const own = withoutEchoedSource(lines);
    if (!offered && looksLikeCode(own.filter((l) => !isTrace(l))))
      put("code", firstWithText(own.filter(codeLine)));
    let version: RegExpExecArray | null = null;
    for (const l of lines) if ((version = VERSION_RE.exec(l.replace(EXAMPLE_RE, " ")))) break;
    // A version in a block is kept for the end: a version the author states in prose ("TensorFlow version
    // 2.13.0") says more than one a pasted log happens to print.
    // In a paste, a bare number after "version" is a protocol's or a schema's ("version: 70016"), not a release.
    if (
      version &&
      !blockVersion &&
      /\d\.\d/.test(version[0]) &&
      /\b(?:version|use|using|installed|with)\b/i.test(body)
    )
      blockVersion = version[0];
    // The block's line an announcement of an error points at: the one that names the failure (not a statement of
    // code), else its first; a block of code with no such line points at nothing.
    const failing = lines.find(
      (l) =>
        /\b(?:error|fail\w*|exception|fatal|denied|invalid|refused|panic\w*)\b/i.test(l) && !codeStatement(l),
    );
    const pointed = failing ?? (looksLikeCode(lines) ? "" : firstWithText(lines));
    return `\n${FENCE_MARK}${pointed.trim()}\n`;
  });

  const lines = (prose.includes("```") ? prose.replace(INLINE_FENCE_RE, "`$1`") : prose).split("\n");
  let steps: string[] = [];
  let inSteps = false;
  /** The checklists, each with its items, how many are ticked, and whether a question stands before it. */
  const lists: {
    items: string[];
    ticked: number;
    unticked: number;
    options: boolean;
    outOfScope: boolean;
  }[] = [];
  let inList = false;
  let before = "";
  const unfenced: string[] = [];
  let actualShown = false;
  let expectedSentence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isFence(line)) continue;
    // The tracker's own notes ("GitHub also notifies thousands of people …") are no one's evidence.
    if (POLICY_RE.test(line) || TEMPLATE_VOICE_RE.test(line)) continue;
    const quoted = /^\s*>/.test(line);
    const trimmed = line.replace(/^\s*>\s?/, "").trim();
    if (!trimmed) continue;
    // Quoted text is someone else's words, except pasted output (a quoted stack trace is still the trace).
    if (quoted) {
      if (isTrace(trimmed)) put("trace", trimmed);
      continue;
    }
    const image = IMAGE_RE.exec(trimmed);
    if (image) put("screenshot", image[0]);
    // Each replacement only where its mark is on the line: most lines have no link and no example.
    // A link keeps its text ("send [`GetBlocks`](…) messages"): a quote without it says something else (a reader
    // found "has no means to send messages" where the author wrote "send GetBlocks messages").
    let withoutLinks = trimmed;
    if (withoutLinks.includes("](")) withoutLinks = withoutLinks.replace(MD_LINK_RE, "$1");
    if (withoutLinks.includes("http")) withoutLinks = withoutLinks.replace(/https?:\/\/\S+/g, " ");
    if (withoutLinks.includes("(") || withoutLinks.includes("["))
      withoutLinks = withoutLinks.replace(EXAMPLE_RE, " ");

    // A label may open the line or a later sentence of it ("… this quarter. Acceptance: one row per task.").
    for (const sentence of withoutLinks.split(/(?<=[.!?])\s+/)) {
      const accept = ACCEPT_LABEL_RE.exec(sentence);
      if (!accept) continue;
      const after = accept[1]!.trim();
      // "Requirements:" or "Acceptance:" alone introduces a list: quote the label and its first item.
      const next = nextText(lines, i);
      if (after && /[\p{L}\p{N}]/u.test(after) && !EMPTY_ANSWER_RE.test(after)) put("acceptance", sentence);
      else if (
        next &&
        (LIST_ITEM_RE.test(next) || (isHeading(sentence) && !isHeading(next) && !EMPTY_ANSWER_RE.test(next)))
      )
        put("acceptance", `${sentence} ${next}`);
    }
    const task = TASK_ITEM_RE.exec(trimmed);
    // A checklist opens where a line that is not one of its items stands before it; a question before it ("I'm
    // asking when it's safe to call it:", "Which platforms?") makes its items the answer's options.
    if (task && !inList) {
      inList = true;
      lists.push({
        items: [],
        ticked: 0,
        unticked: 0,
        options: OPTIONS_LEAD_RE.test(before),
        outOfScope: OUT_OF_SCOPE_LEAD_RE.test(before),
      });
    }
    if (!task) inList = false;
    else if (/\[ \]/.test(trimmed)) lists[lists.length - 1]!.unticked++;
    else lists[lists.length - 1]!.ticked++;
    // A plan's items say what is to be done ("export button", "`OrderDetails.token`"); a single ticked word
    // ("- [x] tests") is a pull request template's checklist, not the work's criteria.
    if (
      task &&
      !TEMPLATE_ITEM_RE.test(task[1]!.trim()) &&
      (/\[ \]/.test(trimmed) || /\S\s+\S/.test(task[1]!.trim()))
    ) {
      lists[lists.length - 1]!.items.push(trimmed);
    }
    before = trimmed;
    if (
      /^[^\p{L}\n]*(?:i (?:need|want) (?:to add )?(?:the )?following|we need (?:the )?following)\b/iu.test(
        trimmed,
      )
    ) {
      const next = nextText(lines, i);
      if (next && LIST_ITEM_RE.test(next)) put("acceptance", `${trimmed} ${next}`);
    }

    // Steps: two or more list items under a steps heading, or numbered on the label's own line.
    const inline = STEPS_INLINE_RE.exec(withoutLinks);
    if (inline) put("steps", inline[1]!);
    if (STEPS_HEAD_RE.test(trimmed) && trimmed.length <= 60) {
      inSteps = true;
      steps = [];
    } else if (inSteps) {
      const step = STEP_ITEM_RE.exec(trimmed);
      if (step && !EMPTY_ANSWER_RE.test(step[1]!.trim())) steps.push(trimmed);
      else if (isHeading(trimmed)) inSteps = false;
      // A procedure written as a sentence under the heading: two actions or more ("Open the dialog, pick two
      // reports, then press Export").
      else if (steps.length === 0 && PROSE_STEPS_RE.test(withoutLinks)) put("steps", withoutLinks);
      if (steps.length >= 2) put("steps", steps.slice(0, 2).join(" "));
    }

    // A type already found keeps its first quote (put), so its patterns are not run again: most of a long
    // description's lines then cost a few cheap tests.
    if (!found.has("demand")) {
      const demandText = withoutLinks.replace(/^\s*(?:\d{1,2}[.)]|[-*+•])\s+/, "");
      const demand = demandIn(demandText);
      if (demand) put("demand", quoteAt(demandText, demand.index, demand[0].length, "sentence"));
    }
    const trace =
      found.has("trace") || !TRACE_GATE_RE.test(trimmed) || codeStatement(trimmed)
        ? null
        : TRACE_RE.exec(trimmed);
    // A sentence that ends on the error's name ("The second start leads to an InitError:") announces the error: the
    // output is the line under it, not the sentence (a reader took the sentence, quoted as "Error output", for false).
    const announces =
      trace !== null &&
      /[:：]\s*$/.test(trimmed) &&
      trace.index + trace[0].length >= trimmed.trimEnd().length &&
      countWords(trimmed.slice(0, trace.index)) >= 3;
    if (trace && announces) {
      const next = nextText(lines, i);
      if (next && !isHeading(next) && !EMPTY_ANSWER_RE.test(next) && TRACE_GATE_RE.test(next))
        put("trace", next);
    } else if (trace)
      put(
        "trace",
        TRACEBACK_RE.test(trimmed)
          ? exceptionAfter(lines, i)
          : quoteAt(trimmed, trace.index, trace[0].length, "line"),
      );
    // Most lines name no error: a substring test spares them both patterns.
    const namesError =
      !found.has("trace") && /error|exception/i.test(withoutLinks) && !codeStatement(trimmed);
    const quotedError = namesError ? ERROR_QUOTED_RE.exec(withoutLinks) : null;
    if (quotedError) put("trace", quoteAt(withoutLinks, quotedError.index, quotedError[0].length, "line"));
    else if (namesError && ERROR_INTRO_RE.test(withoutLinks) && !image) {
      // The output is the code block right under the announcement, or a line that reads as output.
      const under = lines.slice(i + 1).find((l) => l.trim());
      const next = nextText(lines, i);
      if (under && isFence(under) && /[\p{L}]{3}/u.test(under)) put("trace", under.slice(1));
      else if (
        next &&
        under?.trim() === next &&
        !isHeading(next) &&
        !LIST_ITEM_RE.test(next) &&
        !EMPTY_ANSWER_RE.test(next) &&
        !IMAGE_RE.test(next) &&
        OUTPUT_LINE_RE.test(next)
      )
        put("trace", next);
    }
    const version = found.has("versions") ? null : VERSION_RE.exec(withoutLinks);
    if (version) put("versions", quoteAt(withoutLinks, version.index, version[0].length, "line"));
    else if (!found.has("versions") && VERSION_FIELD_RE.test(withoutLinks)) {
      const next = nextText(lines, i);
      if (next && BARE_VERSION_RE.test(next)) put("versions", `${withoutLinks} ${next}`);
    }
    // Expected versus actual: said on the line ("Expected: saved. Actual: it crashes."), or a label with an
    // answer under it.
    const expectedFound = found.has("expected_actual");
    const said =
      expectedFound || !EXPECTED_INLINE_GATE_RE.test(withoutLinks)
        ? null
        : EXPECTED_INLINE_RE.exec(withoutLinks);
    if (!expectedFound && ACTUAL_SHOWN_RE.test(withoutLinks)) actualShown = true;
    const expectedSaid = expectedFound ? null : EXPECTED_SAID_RE.exec(withoutLinks);
    if (expectedSaid && !expectedSentence)
      expectedSentence = quoteAt(withoutLinks, expectedSaid.index, expectedSaid[0].length, "sentence");
    if (said) put("expected_actual", quoteAt(withoutLinks, said.index, said[0].length, "line"));
    else if (!expectedFound && EXPECTED_LABEL_RE.test(withoutLinks)) {
      const next = nextText(lines, i);
      if (next && !isHeading(next) && !EMPTY_ANSWER_RE.test(next))
        put("expected_actual", `${withoutLinks} ${next}`);
    }
    if (unfencedCodeLine(trimmed) && !echoesSource(lines[i - 1])) unfenced.push(trimmed);
  }
  // A form's choice (one item ticked, the others not: "- [x] Please close this issue … - [ ] New documentation"),
  // a question's options and a list put out of the task ("Moved out:") are no criteria: fresh maintainers' readings
  // took each, quoted as acceptance, for false.
  const tasks = lists
    .filter((l) => !l.options && !l.outOfScope && !(l.ticked === 1 && l.unticked >= 1))
    .flatMap((l) => l.items);
  if (tasks.length >= 2) put("acceptance", tasks[0]!);
  if (actualShown && expectedSentence) put("expected_actual", expectedSentence);
  // Code pasted without a fence: several lines that read as code.
  if (unfenced.length >= 3) put("code", unfenced[0]!);
  if (blockVersion) put("versions", blockVersion);
  // A version in the title ("Crash on Android 14") is the author's evidence too.
  if (!found.has("versions")) {
    const v = VERSION_RE.exec(title);
    if (v) put("versions", title);
  }
  return EVIDENCE_TYPES.filter((t) => found.has(t)).map((type) => ({ type, quote: found.get(type)! }));
}
