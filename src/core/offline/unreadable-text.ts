/**
 * Text that no reader can read: random bytes decoded as Latin-1 or as UTF-8 (control characters and U+FFFD
 * replacement characters), or a description that is one long base64 or hex blob. Scored like nothing at all
 * (a thin task), because every finder downstream would otherwise read structure into the noise: 2 KB of random
 * bytes used to score 6.6 as "a question".
 */

/** At least this share of the non-space characters is noise. Real issues (1,837 public texts) have none. */
const NOISE_SHARE = 0.1;
/** A run of base64 or hex characters this long without a space is a blob, not words. */
const BLOB_CHARS = 100;
const BLOB_RE = new RegExp(`[A-Za-z0-9+/=_-]{${BLOB_CHARS},}`, "g");

function isNoiseCode(c: number): boolean {
  return (
    (c < 32 && c !== 9 && c !== 10 && c !== 13) ||
    (c >= 127 && c <= 159) ||
    c === 0xfffd ||
    (c >= 0xe000 && c <= 0xf8ff)
  );
}

/** English-like words of three letters or more, however few: real text has one every few characters. */
const WORD_RE = /(?<![A-Za-z0-9])[A-Za-z]{3,}(?![A-Za-z0-9])/g;
const countWords = (text: string) => text.match(WORD_RE)?.length ?? 0;

/**
 * Whether a text is noise rather than words: a tenth or more of it control or replacement characters and
 * hardly a word in it (a real report with a pasted binary log keeps its words), or nine tenths of it one base64
 * or hex blob with fewer than three words around it (a real report with an inline picture says something).
 */
export function isUnreadable(text: string): boolean {
  let visible = 0;
  let noise = 0;
  /** Runs of visible characters (tokens between whitespace). */
  let tokens = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      inToken = false;
      continue;
    }
    if (!inToken) tokens++;
    inToken = true;
    visible++;
    // A surrogate is noise only when unpaired (emoji and other astral characters are pairs).
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      noise++;
    } else if (c >= 0xdc00 && c <= 0xdfff) noise++;
    else if (isNoiseCode(c)) noise++;
  }
  if (visible < 16) return false;
  if (noise >= visible * NOISE_SHARE) return countWords(text) * 40 < visible;
  if (visible < BLOB_CHARS) return false;
  // Nine tenths blob leaves at most a tenth of the characters for other tokens, and a blob is 100 characters
  // or more: more tokens than 0.11 of the characters rules a blob out without running BLOB_RE (ordinary prose
  // has one every six).
  if (tokens > visible * 0.11) return false;
  let blob = 0;
  for (const m of text.matchAll(BLOB_RE)) blob += m[0].length;
  return blob >= visible * 0.9 && countWords(text.replace(BLOB_RE, " ")) < 3;
}

/** The text, or nothing when it is noise. */
export function readable(text: string): string {
  return isUnreadable(text) ? "" : text;
}
