/**
 * What the author gave, each piece with the author's own words: a reasoning that relies on a piece of
 * evidence quotes it, so a reader can check it. Pure and deterministic; each finder looks at lines of the
 * description (template prompts in HTML comments removed) and returns the first quote it finds.
 */
import { EVIDENCE_TYPES, type EvidenceType } from "../contract.js";
import { MD_LINK_RE } from "./prose.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { POLICY_RE } from "./segments.js";

export { EVIDENCE_TYPES, type EvidenceType } from "../contract.js";

export interface Evidence {
  type: EvidenceType;
  quote: string;
}

const QUOTE_MAX = 140;
/** How much of a quote a persona's reasoning shows (the reading keeps up to QUOTE_MAX). */
export const QUOTE_SHOWN = 80;

/** Numbers written as words, as people write counts of people ("twelve customers", "about forty integrators"). */
const NUMBER_WORD =
  "(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundreds|a thousand|thousands|millions|a dozen|dozens|several hundred|several thousand)";
const WHO =
  "(?:users?|customers?|clients?|integrators?|developers?|teams?|companies|organi[sz]ations?|orgs|people|members|subscribers|partners|accounts|buyers|merchants|admins?|maintainers|contributors|sites|stores|shops|installs?|installations|downloads|votes|upvotes|reactions|thumbs[- ]up|👍|tickets|support tickets|complaints|stars|seats|instances|servers|devices|times a (?:day|week|month))";
/**
 * Requests and sessions count as demand ("200 feature requests"), except per unit of time: "10k requests per
 * minute" is load on a server, not people asking.
 */
const RATE_AFTER =
  "(?!\\s*(?:per|a|an|each|every|/)\\s*(?:s|sec|second|min|minute|h|hr|hour|day|week|month)\\b)";
/**
 * Words that end the phrase a count belongs to: in "two projects as different users" the count is of projects.
 * "Three of our largest customers" keeps its count (of, our).
 */
const LINKING = "(?:as|in|on|for|to|with|by|from|per|and|or|at|into|than|but|that|which|when|if)";
const DEMAND_RE = new RegExp(
  `(?:\\b\\d[\\d,.]{0,20}\\s*(?:k|m)?\\+?|\\b${NUMBER_WORD}|\\b\\d+\\s*%|\\b\\d+\\s*percent)(?:\\s+(?!${LINKING}(?![\\p{L}]))[\\p{L}-]+){0,3}?\\s+(?:(?:requests|sessions)(?![\\p{L}])${RATE_AFTER}|${WHO})(?![\\p{L}])`,
  "iu",
);
/**
 * Words without which DEMAND_RE cannot match (the start of each of its nouns), tested first: most lines name no
 * one, and this costs a fraction of the whole pattern. Same flags, so the same letters match.
 */
const DEMAND_GATE_RE =
  /user|customer|client|integrator|developer|team|compan|organi|orgs|people|member|subscriber|partner|account|buyer|merchant|admin|maintainer|contributor|site|store|shop|install|download|vote|reaction|thumbs|👍|ticket|complaint|star|seat|instance|server|device|times a|request|session/iu;
const ACCEPT_LABEL_RE =
  /^[^\p{L}\n]*(?:acceptance(?: criteria| tests?)?|a\.?c\.?(?=\s*[:：])|done when|definition of done|success looks like|(?:impact (?:&|and) )?success (?:criteria|metrics?)|success means|requirements?|needs?(?=\s*[:：])|must[- ]haves?(?: \([^)]{0,30}\))?|expected outcome|how can this(?: issue)? be resolved\??|we(?:'ll| will) know (?:it(?:'s| is) done|this is done) when|it(?:'s| is) done when|criterios de aceptación|critères d'acceptation|akzeptanzkriterien|验收(?:标准|方式|条件)?|受け入れ条件|критерии приёмки)(?![\p{L}])[^\n:：]{0,20}[:：?？]?\s*(.*)$/iu;
/** Checklist items that are the template's own statements, not the author's plan ("I agree…", "There is…"). */
const TEMPLATE_ITEM_RE =
  /^(?:i(?:'m| am| have|'ve)?\b|please\b|there (?:is|are)\b|to the best\b|the (?:pr|feature|issue|patch)\b|this (?:is|issue|pr)\b|my\b)/i;
const LIST_ITEM_RE = /^\s*(?:[-*+•]|\d{1,2}[.)]|\[[ xX]\])\s+\S/;
const TASK_ITEM_RE = /^\s*[-*+]\s+\[[ xX]\]\s+(\S.*)$/;
const STEP_ITEM_RE = /^\s*(?:\d{1,2}\s*[.):-]|step \d+[:.]|[-*+•])\s+(\S.*)$/i;
const STEPS_LABELS =
  "steps to reproduce|to reproduce|reproduction steps|how to reproduce|repro(?:duction)? steps|verification steps|steps|pasos para reproducir|pasos|étapes pour reproduire|étapes|schritte zur reproduktion|schritte|复现步骤|重现步骤|再現手順|шаги воспроизведения|шаги";
const STEPS_HEAD_RE = new RegExp(`^[^\\p{L}\\n]*(?:${STEPS_LABELS})(?![\\p{L}])`, "iu");
/** Steps written on one line after their label: "Steps: 1. Open the report 2. Export it". */
const STEPS_INLINE_RE = new RegExp(
  `(?:^|[^\\p{L}])(?:${STEPS_LABELS})\\s*[:：]\\s*(1\\s*[.)]\\s*\\S.{0,200}?\\s2\\s*[.)]\\s*[\\p{L}\\p{N}][^\\n.!?。]{0,120}[.!?。]?)`,
  "iu",
);
/** Verbs that open a step of a procedure. */
const ACTION =
  "open|click|press|type|run|go to|navigate|select|choose|enter|create|add|install|start|launch|call|set|load|save|drag|scroll|tap|hover|copy|paste|import|execute|build|use";
/** Two actions or more in one sentence: a verb, then another after "then", "and", a comma or an arrow. */
const PROSE_STEPS_RE = new RegExp(
  `^[^\\n]{0,60}?\\b(?:${ACTION})\\b[^\\n]{2,120}?(?:,\\s*(?:and\\s+)?(?:then\\s+)?|\\s+(?:and\\s+)?then\\s+|\\s+and\\s+|\\s*(?:->|→|>)\\s*)(?:${ACTION}|see|observe|notice|wait)\\b`,
  "i",
);
const TRACE_RE =
  /Traceback \(most recent call last\)|^\s*at [\w$.<>[\]/:-]+\s*\(|^\s*at [\w$.]+\.[\w$<>]+\(|^\s*at \S+:\d+:\d+\)?\s*$|Exception in thread|\b[A-Z]\w*(?:Error|Exception)\b[:(]|^\s*File "[^"]+", line \d+|^panic: |thread '[^']*' panicked at|^goroutine \d+ \[|\bSIGSEGV\b|Segmentation fault|^\s*#\d+\s+0x[0-9a-f]+|^\s*(?:[\w.+-]+:\s*)?(?:[Ff]atal )?(?:[Ee]rror|ERROR)(?:\[\w+\]| [A-Z]+\d+)?\s*:|^\s*\[\s*(?:[Ee]rror|ERROR)\b|^\s*\d+:\d+\s+error\s|\bruntime error:|Assertion [`'"].*[`'"] failed|\bC\+\+ exception\b|"error"\s*:\s*\{|(?<![\w\\/.-])[\w\\/.-]{1,300}(?:\(\d+(?:,\d+)?\)|:\d+(?::\d+)?):\s*(?:fatal )?error\b/m;
/**
 * Words without which TRACE_RE cannot match, tested first (the same case and the same line starts): most lines
 * are neither traces nor errors, and the whole pattern's path-and-line alternative costs far more.
 */
const TRACE_GATE_RE =
  /^\s*at |Traceback|Exception|File "|panic|goroutine |SIGSEGV|Segmentation fault|0x|rror|ERROR|Assertion|exception/m;
const isTrace = (line: string) => TRACE_GATE_RE.test(line) && TRACE_RE.test(line);
/**
 * Error output quoted in prose: a sentence that announces an error and then quotes it, on the same line
 * ('I get this error: "Transaction needs a change address…"') or on the next ("… will encounter an error:").
 */
const ERROR_QUOTED_RE =
  /\b(?:get|gets|got|getting|see|saw|seeing|throws?|threw|raises?|raised|shows?|showed|showing|returns?|returned|receive[sd]?|encounter(?:ed)?|fails? with|failed with)\b[^\n"“]{0,30}\b(?:errors?|exceptions?)(?: messages?)?\b[^\n"“]{0,40}["“][^"”\n]{12,}["”]/i;
const ERROR_INTRO_RE =
  /\b(?:following|this|the|an|these|same|get|gets|got|getting|throws?|threw|shows?|returns?|gives?|see|saw|encounter(?:ed)?|received?)\b[^\n.]{0,20}\b(?:errors?|exceptions?)(?: messages?)?[^\n.`]{0,40}?[:：]\s*$/i;
/** The line under such an announcement reads as output (a colon, quotes, code marks or an error's words), not prose. */
const OUTPUT_LINE_RE =
  /^[`"“_*>]|\b(?:error|exception|fail\w*|invalid|cannot|can't|unable|not found|denied|refused|undefined|null)\b/i;
const VERSION_RE =
  /\b(?<!\d\.)(?:v\d+(?:\.\d+)+|\d+\.\d+\.\d+(?:[-+][\w.]+)?|(?:versions?|release)\s*:?\s*v?\d+(?:\.\d+)*|(?:Node(?:\.js)?|Python|Java|JDK|Go|Rust|rustc|Ruby|PHP|Perl|Chrome|Chromium|Firefox|Safari|Edge|iOS|iPadOS|Android|Windows|Win|macOS|Ubuntu|Debian|Fedora|CentOS|Alpine|React|Vue|Angular|Next\.js|Nextjs|Django|Rails|Spring|PostgreSQL|Postgres|MySQL|MariaDB|Redis|Kubernetes|Docker|VS ?Code|Xcode|Electron|TypeScript|npm|pnpm|yarn|gcc|clang|OpenCV|TensorFlow|tf|CUDA|Bitcoin Core)(?:[ :]v?|v)\d+(?:\.\d+)*\+?)(?!\w|\.\d)/i;
/** A heading or label that asks for a version ("### TensorFlow version"): the line under it holds one. */
const VERSION_FIELD_RE = /\bversion\b[^\n]{0,40}$/i;
const BARE_VERSION_RE = /^[^\p{L}\d\n]*(?:[\p{L}-]+\s*)?v?\d+(?:\.\d+)+/u;
/** Template examples ("(e.g., Linux Ubuntu 16.04)") are the template's words, not the author's. */
const EXAMPLE_RE = /\((?:e\.g\.|ex\.|for example)[^)\n]{0,300}\)|\[e\.g\.[^\]\n]{0,300}\]/gi;
/**
 * The expected side: a label ("Expected behavior", "What is the expected behavior?") or "should … but/instead";
 * inline, the label may open any sentence of the line ("… see USD prices. Expected: EUR prices.").
 */
const EXPECTED_LABEL_RE =
  /^[^\p{L}\n]*(?:(?:what is )?the )?(?:expected|desired)(?: behaviou?r| result| output| outcome)?\b[^\n]{0,30}$|^[^\p{L}\n]*(?:what (?:i )?expected|should be|comportamiento esperado|comportement attendu|erwartetes verhalten|期望行为|预期结果|期待される動作|ожидаемое поведение)\s*[:：?]?\s*$/iu;
/** Words without which EXPECTED_INLINE_RE cannot match, tested first (same flags). */
const EXPECTED_INLINE_GATE_RE = /expect|should|instead|must provide/iu;
const EXPECTED_INLINE_RE =
  /(?:^|(?<=[.!?]\s+))[^\p{L}\n]{0,20}(?:expected(?: behaviou?r| result| output)?|should be)\s*[:：]\s*\S|\b(?:but|and) instead\b|\bshould\b[^.\n]{1,80}\bbut\b[^.\n]{0,20}\b(?:not|n't|no|wrong|fails?|shows?|returns?|gives?|gets?)\b|\b(?:got|get|getting|returns?|shows?)\b[^.\n]{1,60}\binstead of (?:the )?expected\b|(?<!as )\bexpected\b[^.\n]{1,40}\b(?:but|instead)\b|\binstead of the expected\b|\bmust provide\b[^.\n]{1,80}\bbut\b/iu;
/**
 * Expected versus actual said in prose, across lines: what happens is shown ("The results are:", "it prints:")
 * and what should happen is said ("`focal_loss1` should be `0.51168`", "I would expect …").
 */
const ACTUAL_SHOWN_RE =
  /\b(?:(?:the )?(?:results?|outputs?) (?:is|are|was|were)|(?:it|this|that) (?:returns|prints|outputs|gives|shows)|(?:i|we) (?:get|got|see|saw))\b[^.\n]{0,30}[:：]\s*$/i;
const EXPECTED_SAID_RE =
  /\bshould (?:be|return|give|show|print|output|equal)\b|\b(?:i|we)(?:'d| would)? expect(?:ed)?\b|\bis supposed to\b/i;
/** An embedded picture: markdown, or an <img> whose source is an address (not an XSS payload quoted in prose). */
const IMAGE_RE =
  /!\[([^\][]{0,120})\]\([^)\s]{1,500}\)|<img\b[^>]{0,500}?\bsrc\s*=\s*["']?(?:https?:\/\/|\/)[^>]{0,500}>/i;
/** Triple backticks opened and closed on one line are inline code, not a block. */
const INLINE_FENCE_RE = /```([^`\n]+)```/g;
/** A line that reads as code: statements, calls, declarations, markup, or a shell command. */
const CODE_LINE_RE =
  /^\s*(?:#include\s*[<"]|#(?:ifdef|ifndef|define|if|endif|pragma)\b|import\s+[\w{*]|from\s+\S+\s+import\b|(?:def|class|function|fn|func|public|private|static|const|let|var|using|package|return)\b\s*[\w({[]|\$\s+\S|(?:npm|npx|pip3?|python3?|node|git|cd|cmake|make|cargo|go|docker|kubectl|yarn|pnpm|bitcoin-cli|curl)\s+\S|<\/?(?!details|summary|br|sub|sup|img|p\b|b\b|i\b)[a-zA-Z][\w-]*[\s>/]|[\w.$[\]]+(?:\s*,\s*[\w.$]+)*\s*(?:=|\+=|-=)\s*[^=\s]|[\w.$]+\([^)]*\)\s*;?\s*$|[\w.$]+\(.*[,{(]\s*$|\w+\s*\([^)]*\)\s*\{|[{}]\s*$|.*;\s*$)/;
/** A line of a log, not code: a timestamp, a progress counter or a level tag opens it. */
const LOG_LINE_RE =
  /^\s*(?:\[?\d{4}-\d{2}-\d{2}|\[\s*\d+%\]|\d+>|\[ ?(?:RUN|OK|INFO|WARN|DEBUG)\b|(?:INFO|WARNING|WARN|DEBUG)[:\s])/i;

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

function looksLikeCode(lines: readonly string[]): boolean {
  const content = lines.filter((l) => l.trim() && !LOG_LINE_RE.test(l));
  if (content.length === 0) return false;
  const codeish = content.filter((l) => CODE_LINE_RE.test(l) && !/^\s*https?:\/\/\S+\s*$/.test(l)).length;
  return codeish >= Math.max(1, Math.ceil(content.length / 3));
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
  const prose = renderMarkdown(md, (_block, body) => {
    const lines = body.split("\n");
    const at = lines.findIndex(isTrace);
    // A Python trace's own line is its exception ("AttributeError: …"), wherever the paste starts.
    const exception =
      at >= 0 ? lines.slice(at).findLast((l) => EXCEPTION_LINE_RE.test(l) && !/^\s/.test(l)) : undefined;
    if (exception) put("trace", exception.trim());
    else if (at >= 0) put("trace", exceptionAfter(lines, at));
    if (looksLikeCode(lines.filter((l) => !isTrace(l))))
      put("code", firstWithText(lines.filter((l) => CODE_LINE_RE.test(l))));
    const version = lines.map((l) => VERSION_RE.exec(l.replace(EXAMPLE_RE, " "))).find(Boolean);
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
    // The block's line an announcement of an error points at: the one that names the failure, else its first.
    const failing = lines.find((l) =>
      /\b(?:error|fail\w*|exception|fatal|denied|invalid|refused|panic\w*)\b/i.test(l),
    );
    return `\n${FENCE_MARK}${(failing ?? firstWithText(lines)).trim()}\n`;
  });

  const lines = (prose.includes("```") ? prose.replace(INLINE_FENCE_RE, "`$1`") : prose).split("\n");
  let steps: string[] = [];
  let inSteps = false;
  const tasks: string[] = [];
  const unfenced: string[] = [];
  let actualShown = false;
  let expectedSentence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isFence(line)) continue;
    // The tracker's own notes ("GitHub also notifies thousands of people …") are no one's evidence.
    if (POLICY_RE.test(line)) continue;
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
    const withoutLinks = trimmed
      .replace(MD_LINK_RE, " ")
      .replace(/https?:\/\/\S+/g, " ")
      .replace(EXAMPLE_RE, " ");

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
    // A plan's items say what is to be done ("export button", "`OrderDetails.token`"); a single ticked word
    // ("- [x] tests") is a pull request template's checklist, not the work's criteria.
    if (
      task &&
      !TEMPLATE_ITEM_RE.test(task[1]!.trim()) &&
      (/\[ \]/.test(trimmed) || /\S\s+\S/.test(task[1]!.trim()))
    )
      tasks.push(trimmed);
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
      const demand = DEMAND_GATE_RE.test(demandText) ? DEMAND_RE.exec(demandText) : null;
      if (demand) put("demand", quoteAt(demandText, demand.index, demand[0].length, "sentence"));
    }
    const trace = found.has("trace") || !TRACE_GATE_RE.test(trimmed) ? null : TRACE_RE.exec(trimmed);
    if (trace)
      put(
        "trace",
        TRACEBACK_RE.test(trimmed)
          ? exceptionAfter(lines, i)
          : quoteAt(trimmed, trace.index, trace[0].length, "line"),
      );
    // Most lines name no error: a substring test spares them both patterns.
    const namesError = !found.has("trace") && /error|exception/i.test(withoutLinks);
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
    if (CODE_LINE_RE.test(trimmed) && !/[.!?]\s*$/.test(trimmed) && !LIST_ITEM_RE.test(trimmed))
      unfenced.push(trimmed);
  }
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
