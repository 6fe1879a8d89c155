/**
 * The description's markdown, read once for every finder: the template's prompts in HTML comments taken out
 * (each leaves a line break: a comment is a block of its own, and what stood on either side of it are not one
 * sentence), words struck through taken out, and the fenced code blocks found (CommonMark's rules, `fenceBlocks`). The structure, the evidence,
 * the ask, the author's sentences, the concepts, the kind model and the language are all read from this, each
 * replacing the code blocks by what it needs (a mark, the failing line, nothing) with `withBlocks`, so no
 * finder looks for comments or fences again.
 */
import { fenceBlocks, HTML_COMMENT_RE, withBlocks, type FenceBlock } from "./prose.js";

/** The most of a description any finder reads (the API takes 64 KiB). */
const MAX_CHARS = 70_000;

export interface MarkdownText {
  /** The description without its HTML comments (each replaced by a line break), at most MAX_CHARS characters. */
  text: string;
  /** The fenced code blocks of `text`. */
  blocks: readonly FenceBlock[];
}

/**
 * Words the author struck through (GitHub's "~~…~~" within a paragraph, `<del>`, `<s>`, `<strike>`): withdrawn, not what the
 * task says now ("~~Let's update to 1.68.~~", then the current ask). Readers took such words, quoted as the ask, for
 * false. A fence's "~~~" is not a strike. A strike cannot hold "~~", so each "~~" is read past once (linear).
 */
const STRUCK_RE =
  /(?<!~)~~(?=[^\s~])(?:[^\n~]|~(?!~)|\n(?![ \t]*\n)){0,2000}?[^\s~]~~(?!~)|<(del|s|strike)>[^<]{0,2000}<\/\1>/gi;

export function readMarkdown(description: string): MarkdownText {
  let text = description.length > MAX_CHARS ? description.slice(0, MAX_CHARS) : description;
  if (text.includes("<!--")) text = text.replace(HTML_COMMENT_RE, "\n");
  // A paragraph break in its place: what stood on either side is not one sentence (a quote never joins them).
  if (text.includes("~~") || /<(?:del|s|strike)>/i.test(text)) text = text.replace(STRUCK_RE, "\n\n");
  return { text, blocks: fenceBlocks(text) };
}

/** The text with each code block replaced by what `replace` returns for it, read up to `upTo` characters. */
export function renderMarkdown(
  md: MarkdownText,
  replace: (block: string, body: string) => string,
  upTo?: number,
): string {
  return withBlocks(md.text, md.blocks, replace, upTo);
}

/** The last line with text before `at` (a block's start): what introduces the block. */
export function lineBefore(md: MarkdownText, at: number): string {
  let end = at;
  for (let tries = 0; tries < 5 && end > 0; tries++) {
    const start = md.text.lastIndexOf("\n", end - 2) + 1;
    const line = md.text.slice(start, end).trim();
    if (line) return line;
    end = start;
  }
  return "";
}
