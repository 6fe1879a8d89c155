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
/**
 * A checklist item, with or without a list mark before its box ("- [ ] …", "[x] …"), the box ticked as authors tick it
 * by hand ("- [OK] I agree to contribute …", "[✓]", "[ x ]": a form's checklist, read as the author's words about code
 * when only "x" counted). Not a link's text ("[OK](…)").
 */
export const CHECKBOX_LINE_RE = /^\s*(?:[-*+]\s+)?\[ ?(?:[ xX✓✔]?|OK|ok|Ok|yes|Yes) ?\](?!\()/u;
/** A list item's mark: a bullet, or a number and "." or ")". */
export const LIST_MARK_RE = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;
/** An embedded picture: markdown, or an <img> tag. */
export const IMAGE_RE = /!\[[^\][\n]{0,300}\]\([^)\n[]{0,500}\)|<img\b[^<>]{0,500}>/gi;
/** A bold or underlined label at the start of a line ("**Feature Name:** …"): the rest is judged on its own. */
export const LABEL_RE = /^\s*(?:\*\*[^*\n]{1,80}\*\*|__[^_\n]{1,80}__)\s*:?\s*/;

export const WORD_RE = /[\p{L}\p{N}]+/gu;
export const CJK_TEST = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
export const CJK_RE = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;

const WORD_CHAR_RE = /[\p{L}\p{N}]/u;

/**
 * Words, counting text without spaces (Chinese, Japanese, Korean) as one word per two characters: the runs of
 * WORD_RE with each CJK character read as a space, plus half the CJK characters. Counted in one pass over the
 * characters, without the arrays of words two matches made (it runs on every sentence of every report).
 */
export function countWords(text: string): number {
  let runs = 0;
  let cjk = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let word: boolean;
    if (c < 128) word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    else if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)) {
      cjk++;
      word = false;
    } else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A character outside the BMP: its two halves read together.
      word = WORD_CHAR_RE.test(text.slice(i, i + 2));
      i++;
    } else word = WORD_CHAR_RE.test(text[i]!);
    if (word && !inWord) runs++;
    inWord = word;
  }
  return runs + Math.ceil(cjk / 2);
}
