/**
 * The description's markdown, read once for every finder: the template's prompts in HTML comments taken out
 * (each leaves a line break: a comment is a block of its own, and what stood on either side of it are not one
 * sentence), and the fenced code blocks found (CommonMark's rules, `fenceBlocks`). The structure, the evidence,
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

export function readMarkdown(description: string): MarkdownText {
  let text = description.length > MAX_CHARS ? description.slice(0, MAX_CHARS) : description;
  if (text.includes("<!--")) text = text.replace(HTML_COMMENT_RE, "\n");
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
