/**
 * Whether a line of a description is source code: what the evidence finder quotes as "Code:" (a block's code line,
 * code pasted without a fence) and what keeps a statement that names an error from reading as error output. Each
 * exception to CODE_LINE_RE is output or prose a maintainer reading a comment took for false. Pure.
 */
import { CODE_LINE_RE, LIST_ITEM_RE, LOG_LINE_RE } from "./evidence-patterns.js";

/**
 * A setting as a tool prints it, its name padded to a column and a number after it ("   MinHeapFreeRatio         = 40",
 * a JVM's heap dump): output, not an assignment in source (a reader took it, quoted as "Code:", for false). Code
 * aligned by hand ("a     = tf.ones(…)") still reads as code.
 */
const PRINTED_SETTING_RE = /^\s*[\w.$-]+ {2,}[=:] +\d/;
/**
 * A stack frame as a thread dump prints it, without "at " ("sun.misc.Unsafe.park(Native Method)",
 * "org.a.B.read(B.java:957)"): a call's shape, but output (a reader took it, quoted as "Code:", for false).
 */
const BARE_FRAME_RE = /^\s*[\w$.]+\.[\w$<>]+\((?:Native Method|Unknown Source|[\w$]+\.\w+:\d+)\)/;
/**
 * A line that opens as an English sentence, a Capitalised word and three lower-case ones ("At the same time we can
 * look at constructor …(…);"): prose that ends on a ";" or a call, not code pasted without a fence.
 */
const PROSE_OPENING_RE = /^[A-Z][a-z]+(?: [a-z]+){3}\b/;

/**
 * No-break spaces as plain ones: text pasted from a web page or a tracker pads its columns with them (a JVM's printed
 * settings in a Jira report, "   MinHeapFreeRatio\u00a0 \u00a0 = 40", were read as an assignment and quoted as "Code:").
 * Only what is tested changes; quotes are still taken from the text as written.
 */
const spaced = (l: string): string => (l.includes("\u00a0") ? l.replace(/\u00a0/g, " ") : l);

/**
 * A name and a version alone ("python 3.11.4", "node v18.17.0", "npm 9.6.7"): an environment's line, though a command
 * opens with the same word (a reader took "python 3.11.4", quoted as "Code:", for false).
 */
const NAME_VERSION_RE = /^\s*[\w.+-]{1,40}:?\s+v?\d+(?:\.\d+)+[\w.+-]*\s*$/;

/**
 * A setting alone on its line, a name and a value without spaces ("force_builders=linux,win64", a pull request
 * template's CI directive; "CMAKE_BUILD_TYPE=Release"): configuration, not code to start from (readers took
 * "force_builders=Custom", quoted as "Code:", for false).
 */
const BARE_SETTING_RE = /^\s*[\w.-]+=[^\s=()'"]*\s*$/;

/** A line of code in a block: not a log's line, not a link alone, not a printed setting, not a stack frame. */
export const codeLine = (line: string): boolean => {
  const l = spaced(line);
  return (
    CODE_LINE_RE.test(l) &&
    !LOG_LINE_RE.test(l) &&
    !/^\s*https?:\/\/\S+\s*$/.test(l) &&
    !PRINTED_SETTING_RE.test(l) &&
    !BARE_FRAME_RE.test(l) &&
    !NAME_VERSION_RE.test(l) &&
    !BARE_SETTING_RE.test(l)
  );
};

export function looksLikeCode(lines: readonly string[]): boolean {
  const content = lines.filter((l) => l.trim() && !LOG_LINE_RE.test(l));
  if (content.length === 0) return false;
  return content.filter(codeLine).length >= Math.max(1, Math.ceil(content.length / 3));
}

/** A statement or an annotation of source code: a line of code, even where it names an error. */
export function codeStatement(line: string): boolean {
  return (
    CODE_LINE_RE.test(line) ||
    /^\s*@\w/.test(line) ||
    // A statement that raises ("throw new SocketException(…);", "{ throw new IllegalArgumentException(…); }") or
    // ends as one ("…);"): source pasted without a fence, which output does not look like.
    /^\s*\{?\s*(?:throw|raise)\s+(?:new\s+)?[\w.$]+\s*\(/.test(line) ||
    /\)\s*;\s*\}?\s*$/.test(line)
  );
}

/**
 * A line outside any fence that reads as code: not a sentence that ends as one, not a list's item, not prose, not a
 * tool's log line ("npm ERR! Linux 4.15.0-29-generic", pasted without a fence, opens as an npm command would).
 */
export function unfencedCodeLine(trimmed: string): boolean {
  return (
    CODE_LINE_RE.test(trimmed) &&
    !LOG_LINE_RE.test(trimmed) &&
    !NAME_VERSION_RE.test(trimmed) &&
    !/[.!?]\s*$/.test(trimmed) &&
    !LIST_ITEM_RE.test(trimmed) &&
    !PROSE_OPENING_RE.test(trimmed)
  );
}

/** A Python traceback's frame ("  File \"train.py\", line 3, in <module>"): the line under it echoes the source. */
const PY_FRAME_RE = /^\s*File "[^"\n]{1,500}", line \d+/;

/**
 * A paste's lines without the source a Python traceback echoes under each frame ("self.run_test()", "requirement_set =
 * resolver.resolve(") nor its carets: output, though each reads as code (readers took one, quoted as "Code:", for
 * false).
 */
export function withoutEchoedSource(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && PY_FRAME_RE.test(lines[i - 1]!)) continue;
    if (/^\s*\^+\s*$/.test(lines[i]!)) continue;
    out.push(lines[i]!);
  }
  return out;
}

/** Whether the line before this one is a Python traceback's frame, so that this one echoes source. */
export const echoesSource = (previous: string | undefined): boolean =>
  previous !== undefined && PY_FRAME_RE.test(previous);
