/**
 * Markdown that is not the author's prose, in one place for every reader of the text (the structure, the
 * analysis, the kind model, the evidence finders): template prompts in HTML comments, fenced code, links.
 */
export const HTML_COMMENT_RE = /<!--[\s\S]*?(?:-->|$)/g;
export const FENCE_RE = /(```|~~~)[\s\S]*?(?:\1|$)/g;
export const URL_RE = /\b(?:https?:\/\/|www\.)\S+/gi;
/** A markdown link, its text captured; bounded and never across a "[", so "![![![…" cannot backtrack. */
export const MD_LINK_RE = /\[([^\][\n]{0,500})\]\([^)\n]{0,2000}\)/g;

/** The text without template prompts (HTML comments): what the author and the template's headings say. */
export function withoutPrompts(text: string): string {
  return text.includes("<!--") ? text.replace(HTML_COMMENT_RE, "\n") : text;
}
