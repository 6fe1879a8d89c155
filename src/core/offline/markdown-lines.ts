/**
 * The shapes of a markdown line, and what a word is: one definition for every finder that reads the text line by
 * line (the structure, the ask, the author's sentences), so they agree on what a quote, a table, a checklist, a
 * list item, a picture or a bold label is.
 */
/** A quote of someone else ("> …"). */
export const QUOTE_LINE_RE = /^\s*>/;
/** A table row. */
export const TABLE_LINE_RE = /^\s*\|/;
/** Indented code (four spaces or a tab), where a blank line comes before it. */
export const INDENTED_RE = /^(?: {4}|\t)/;
/** A checklist item, with or without a list mark before its box ("- [ ] …", "[x] …"). */
export const CHECKBOX_LINE_RE = /^\s*(?:[-*+]\s+)?\[[ xX]?\]/;
/** A list item's mark: a bullet, or a number and "." or ")". */
export const LIST_MARK_RE = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;
/** An embedded picture: markdown, or an <img> tag. */
export const IMAGE_RE = /!\[[^\][\n]{0,300}\]\([^)\n]{0,500}\)|<img\b[^>]{0,500}>/gi;
/** A bold or underlined label at the start of a line ("**Feature Name:** …"): the rest is judged on its own. */
export const LABEL_RE = /^\s*(?:\*\*[^*\n]{1,80}\*\*|__[^_\n]{1,80}__)\s*:?\s*/;

export const WORD_RE = /[\p{L}\p{N}]+/gu;
export const CJK_TEST = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
export const CJK_RE = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;

/** Words, counting text without spaces (Chinese, Japanese, Korean) as one word per two characters. */
export function countWords(text: string): number {
  const cjk = text.match(CJK_RE)?.length ?? 0;
  if (cjk === 0) return text.match(WORD_RE)?.length ?? 0;
  const rest = text.replace(CJK_RE, " ");
  return (rest.match(WORD_RE)?.length ?? 0) + Math.ceil(cjk / 2);
}
