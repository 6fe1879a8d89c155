/**
 * Markdown that is not the author's prose, in one place for every reader of the text (the structure, the
 * analysis, the kind model, the evidence finders): template prompts in HTML comments, fenced code, links.
 */
export const HTML_COMMENT_RE = /<!--[\s\S]*?(?:-->|$)/g;
/** An opening fence: three or more backticks or tildes at a line's start, and its info string. */
const FENCE_OPEN_RE = /^[ \t]*(`{3,}|~{3,})([^\r\n]*)\r?$/;

/** A fence opened by a line: its character and length, or null ("```js```" on one line is inline code). */
export function fenceOpening(line: string): { char: string; length: number } | null {
  const m = FENCE_OPEN_RE.exec(line);
  if (!m) return null;
  const run = m[1]!;
  // A backtick fence's info string holds no backtick (CommonMark): "```code```" is a code span.
  if (run[0] === "`" && m[2]!.includes("`")) return null;
  return { char: run[0]!, length: run.length };
}

/**
 * Whether a line closes the fence opened: the same character, at least as many, and nothing after them. A line
 * such as "```shell" inside a block is the block's content (CommonMark): a stray fence in an issue no longer turns
 * the rest of it inside out, with the logs read as prose and the prose as code.
 */
export function closesFence(line: string, open: { char: string; length: number }): boolean {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  let run = 0;
  while (line[i + run] === open.char) run++;
  // Authors often close a block at the end of its last line ("  })```"); the old readers did too, and reading
  // the rest of the issue as code would lose its prose. GitHub would not, but the author meant to close it.
  if (run === 0 && open.char === "`")
    return /[^`]`{3,}[ \t\r]*$/.test(line) && !line.trimStart().startsWith("`");
  if (run < open.length) return false;
  // Windows line ends ("\r") count as the space they are.
  for (let k = i + run; k < line.length; k++) if (!" \t\r".includes(line[k]!)) return false;
  return true;
}

/** A fenced code block: offsets into the text it was found in (the block from its opening fence to its closing one). */
export interface FenceBlock {
  start: number;
  end: number;
  bodyStart: number;
  bodyEnd: number;
}

/**
 * The fenced code blocks of a text, read line by line as CommonMark reads fences: an unclosed block runs to the
 * end. Linear in the text. Every reader of the text takes its code blocks from here, so they agree on what is code.
 */
export function fenceBlocks(text: string): FenceBlock[] {
  const blocks: FenceBlock[] = [];
  if (!text.includes("```") && !text.includes("~~~")) return blocks;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const nl = text.indexOf("\n", i);
    const lineEnd = nl < 0 ? n : nl;
    const open = fenceOpening(text.slice(i, lineEnd));
    if (!open) {
      i = lineEnd + 1;
      continue;
    }
    const bodyStart = Math.min(lineEnd + 1, n);
    let j = bodyStart;
    let close = n;
    let closeEnd = n;
    while (j < n) {
      const e = text.indexOf("\n", j);
      const le = e < 0 ? n : e;
      if (closesFence(text.slice(j, le), open)) {
        close = j;
        closeEnd = le;
        break;
      }
      j = le + 1;
    }
    blocks.push({ start: i, end: closeEnd, bodyStart, bodyEnd: close });
    i = closeEnd + 1;
  }
  return blocks;
}

/**
 * The text with every block of `blocks` (found in it by fenceBlocks) replaced by what `replace` returns for it
 * (its whole text, and its body between the fences). Read up to `upTo` characters of the text only, where given.
 */
export function withBlocks(
  text: string,
  blocks: readonly FenceBlock[],
  replace: (block: string, body: string) => string,
  upTo = text.length,
): string {
  if (blocks.length === 0) return upTo < text.length ? text.slice(0, upTo) : text;
  let out = "";
  let kept = 0;
  for (const b of blocks) {
    if (b.start >= upTo) break;
    out +=
      text.slice(kept, b.start) + replace(text.slice(b.start, b.end), text.slice(b.bodyStart, b.bodyEnd));
    kept = b.end;
  }
  return kept < upTo ? out + text.slice(kept, upTo) : out;
}

/** Every fenced code block of a text replaced by what `replace` returns for it (fenceBlocks, then withBlocks). */
export function replaceFences(text: string, replace: (block: string, body: string) => string): string {
  return withBlocks(text, fenceBlocks(text), replace);
}
export const URL_RE = /\b(?:https?:\/\/|www\.)\S+/gi;
/**
 * A markdown link, its text captured; bounded and never across a "[", so "![![![…" cannot backtrack. Its address
 * does not run across a "[" either: each attempt then reads only up to the next "[", where the next attempt starts,
 * so the whole text is read about once (with a 2,000-character address read from every "[", 64 KiB of "![](" took
 * 1.4 s). An address holding a "[" is not read as a link. The other readers' link and picture patterns keep to the
 * same rule, and a tag ("<img …>") does not run across a "<".
 */
export const MD_LINK_RE = /\[([^\][\n]{0,500})\]\([^)\n[]{0,2000}\)/g;

/** The text without template prompts (HTML comments): what the author and the template's headings say. */
export function withoutPrompts(text: string): string {
  return text.includes("<!--") ? text.replace(HTML_COMMENT_RE, "\n") : text;
}

/** The tracker's own notes and policies, which templates carry into every issue. */
export const POLICY_RE =
  /\b(?:github also notifies|notifies thousands of people|as per our github policy|we only address|code of conduct|contributing guidelines?|contribution guidelines?|search (?:the )?existing issues|existing (?:issues|discussions)|(?:will|may|might|are likely to|is likely to) be closed|support requests|stack ?overflow|discussions? (?:tab|forum|board)|for (?:support|general questions|usage questions)|issue tracker is (?:for|not)|bug tracker is (?:for|not)|this (?:template|form)\b|(?:the )?form below|must be filled (?:out|in)|latest (?:version|release) of)\b/i;

/**
 * A paragraph put wholly in parentheses, emphasis marks aside ("_(Note, you don't have to fill out every section here.
 * They're just here for guidance. …)_"): a template's aside to the reporter, not the author's account. The first ")"
 * must close the paragraph: "(see the picture) The app crashes (on save)" is the author's.
 */
export function isAside(paragraph: string): boolean {
  const t = paragraph.trim().replace(/^[_*\s]+|[_*\s.]+$/g, "");
  return t.startsWith("(") && t.indexOf(")") === t.length - 1 && t.length > 2;
}

/**
 * The tracker's notice itself ("This issue tracker is not for questions", "support requests … are likely to be
 * closed"): the paragraph that holds it is the tracker's in all its sentences.
 */
export const TRACKER_NOTICE_RE =
  /\b(?:(?:issue|bug) tracker is (?:for|not)|(?:are|is) likely to be closed|support requests (?:that|which) are|github also notifies|here is our policy)\b/i;

/**
 * A template speaking to the reporter about the report ("Your bug will get fixed much faster if we can run your
 * code", "If the current behavior is a bug, please provide the steps …", "Please make sure that this is a feature
 * request. As per our GitHub Policy, we only address …", "This request needs at least 7 upvotes", a question put to
 * the reporter: "What is your operating system and its version?", "What version of … are you running?", "If possible,
 * please share a link to Colab …", "To help us fix crashes like this, please enable logging", "Please go to Stack
 * Overflow for help and support"), and a bot's footer under what it generated ("This message was automatically
 * generated."): an author writes "my bug", "the bug", does not ask in an if-clause for what the report should hold,
 * and does not call their words generated. Fresh maintainer's readings found each quoted. Unlike the tracker's
 * notice (TRACKER_NOTICE_RE), what follows it is the author's: the template's headings and the author's answers.
 */
export const TEMPLATE_VOICE_RE =
  /(?<![a-z0-9])your (?:bug|issue|report|problem|feature request|request)s? (?:will|may|might|can|could|gets?)\b|(?<![a-z0-9])as per our \[?github policy|(?<![a-z0-9])we only address\b|(?<![a-z0-9])for guidance on contributing\b|(?<![a-z0-9])(?:this|the) (?:request|issue|feature request|suggestion) needs at least \d+|^[\W_]*what (?:is|are|was|were) your\b|^[\W_]*(?:what|which)\b[^?\n]{0,80}\b(?:are|were|do|did) you (?:running|using|use|run|on)\b|(?<![a-z0-9])please make sure (?:that )?this is an? (?:bug|feature|question|documentation)|^[\W_]*if (?:the|this|your|you|possible|applicable|relevant|needed)\b[^.!?\n]{0,80}\bplease (?:provide|include|describe|add|attach|share|paste|explain|list)\b|(?<![a-z0-9])to help us (?:fix|reproduce|understand|investigate|diagnose|triage)\b|(?<![a-z0-9])please go to stack ?overflow\b|(?<![a-z0-9])(?:this|the) (?:message|comment|report|e-?mail|notification|issue) (?:was|is|has been) (?:automatically|auto-?)\s?generated\b/i;

/** The author speaking: "I", "my", "we", "our" and their contractions. */
export const FIRST_PERSON_RE = /\b(?:i|i'm|i've|i'd|me|my|we|we're|we've|our|us)\b/i;
