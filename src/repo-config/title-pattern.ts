/**
 * Title patterns (`skip-title-patterns`): compiled by RE2 (linear time), sized from their text before they are
 * compiled, and their verdicts kept. Apart from the schema because the sizing is most of the code.
 */
import { RE2JS } from "re2js";

export const MAX_TITLE_PATTERN_CHARS = 200;
/**
 * RE2 runs in linear time, but the constant is the compiled program's size: `(|.){999}x` is 701 bytes
 * and compiles to about 5,000 instructions, and 40 of them held the event loop for seconds per issue.
 * Real title patterns (`^wip\b`, `^(chore|deps)\(`) compile to a few dozen.
 */
export const MAX_PATTERN_PROGRAM = 1000;
/**
 * Compiling case-insensitively folds every code point of a character class's ranges one by one (from
 * U+0041 to U+1E943; a range spanning both ends is taken whole): `[\x{80}-\x{10FFFF}]` folds 125,000
 * of them, about 18 ms, and 140 such classes held the loop for 3 s. `[a-z]` folds 26, the CJK block 21,000.
 */
export const MAX_PATTERN_FOLDED = 30_000;

export class PatternTooComplexError extends Error {}

/** Verdicts by pattern source, refusals included, least recently used first (a bounded LRU). */
const verdicts = new Map<string, RE2JS | Error>();
const VERDICT_CACHE_SIZE = 1000;
let compiles = 0;

/** How many times a title pattern has been compiled by RE2 in this process (a cached verdict is not). */
export function titlePatternCompiles(): number {
  return compiles;
}

/** Instructions in RE2's compiled program (re2js keeps it on an internal field; 0 if it moves). */
function programSize(re: RE2JS): number {
  const prog = (re as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog;
  return prog?.inst?.length ?? 0;
}

const FOLD_MIN = 0x41;
const FOLD_MAX = 0x1e943;

/**
 * What compiling `pattern` would cost, read from its text alone (it is at most 200 characters, so this is
 * quick whatever it says): an estimate of the instructions RE2 compiles it to (repeats multiply what they
 * repeat, as RE2's simplifier expands them) and the code points case folding walks through. It errs high;
 * a pattern it cannot read is left to the compiler, which refuses it.
 */
export function estimatePatternCost(pattern: string): { instructions: number; folded: number } {
  let i = 0;
  let folded = 0;
  const n = pattern.length;
  const at = (k = 0) => pattern[i + k];
  const hexRune = (): number => {
    // After `\x`: `{hex}` or two hex digits.
    if (at() === "{") {
      const close = pattern.indexOf("}", i);
      const value = parseInt(pattern.slice(i + 1, close < 0 ? n : close), 16);
      i = close < 0 ? n : close + 1;
      return Number.isFinite(value) ? value : 0;
    }
    const value = parseInt(pattern.slice(i, i + 2), 16);
    i += 2;
    return Number.isFinite(value) ? value : 0;
  };
  /** One class member: a code point, or -1 for a table (`\d`, `\pL`), which folds by table. */
  const classRune = (): number => {
    if (at() !== "\\") {
      const c = pattern.codePointAt(i)!;
      i += c > 0xffff ? 2 : 1;
      return c;
    }
    i += 1;
    const e = at();
    i += 1;
    if (e === "x") return hexRune();
    if (e === "p" || e === "P") {
      if (at() === "{") {
        const close = pattern.indexOf("}", i);
        i = close < 0 ? n : close + 1;
      } else i += 1;
      return -1;
    }
    if (e !== undefined && /[dDsSwW]/.test(e)) return -1;
    if (e !== undefined && /[0-7]/.test(e)) {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(at() ?? "")) digits += pattern[i++];
      return parseInt(digits, 8);
    }
    return e === undefined ? 0 : e.codePointAt(0)!;
  };
  const foldRange = (lo: number, hi: number) => {
    if (hi < lo || (lo <= FOLD_MIN && hi >= FOLD_MAX)) return;
    folded += Math.max(0, Math.min(hi, FOLD_MAX) - Math.max(lo, FOLD_MIN) + 1);
  };
  const charClass = () => {
    // After `[`: an optional `^`, a leading `]` taken literally, ranges, `[:name:]` tables.
    if (at() === "^") i += 1;
    let first = true;
    while (i < n && (at() !== "]" || first)) {
      first = false;
      if (at() === "[" && at(1) === ":") {
        const close = pattern.indexOf(":]", i + 2);
        if (close >= 0) {
          i = close + 2;
          continue;
        }
      }
      const lo = classRune();
      if (at() === "-" && at(1) !== "]" && i + 1 < n) {
        i += 1;
        const hi = classRune();
        if (lo >= 0 && hi >= 0) foldRange(lo, hi);
      } else if (lo >= 0) foldRange(lo, lo);
    }
    i += 1;
  };
  const atom = (): number => {
    const c = at()!;
    if (c === "(") {
      i += 1;
      let capture = true;
      if (at() === "?") {
        const named =
          pattern.startsWith("?P<", i) || (pattern.startsWith("?<", i) && !/[=!]/.test(at(2) ?? ""));
        if (named) {
          const close = pattern.indexOf(">", i);
          i = close < 0 ? n : close + 1;
        } else {
          while (i < n && at() !== ":" && at() !== ")") i += 1;
          if (at() === ")") {
            i += 1;
            return 0; // flags only, e.g. (?i)
          }
          i += 1;
          capture = false;
        }
      }
      const inner = alternation();
      if (at() === ")") i += 1;
      return inner + (capture ? 2 : 0);
    }
    if (c === "[") {
      i += 1;
      charClass();
      return 1;
    }
    if (c === "\\") {
      if (at(1) === "Q") {
        const close = pattern.indexOf("\\E", i + 2);
        const literal = pattern.slice(i + 2, close < 0 ? n : close);
        i = close < 0 ? n : close + 2;
        return [...literal].length;
      }
      classRune();
      return 1;
    }
    i += pattern.codePointAt(i)! > 0xffff ? 2 : 1;
    return 1;
  };
  const concatenation = (): number => {
    let total = 0;
    let last = 0;
    while (i < n && at() !== "|" && at() !== ")") {
      const c = at();
      const repeat = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
      if (c === "*" || c === "+" || c === "?") {
        i += 1;
        total += 1;
        last += 1;
      } else if (repeat) {
        i += repeat[0].length;
        const min = Number(repeat[1]);
        const max = repeat[2] === undefined ? min : repeat[3] === "" ? undefined : Number(repeat[3]);
        // x{n} is n copies; x{n,m} adds m-n optional ones; x{n,} ends in x+.
        const size = min * last + (max === undefined ? 1 : Math.max(0, max - min) * (last + 1)) || 1;
        total += size - last;
        last = size;
      } else {
        last = atom();
        total += last;
        continue;
      }
      if (at() === "?") i += 1; // non-greedy
    }
    return Math.max(total, 1);
  };
  const alternation = (): number => {
    let total = concatenation();
    while (at() === "|") {
      i += 1;
      total += concatenation() + 1;
    }
    return total;
  };
  let instructions = 2; // the program's fail and match
  while (i < n) {
    instructions += alternation();
    if (at() === ")") i += 1; // unbalanced: the compiler will say so
  }
  return { instructions, folded };
}

function judgeTitlePattern(pattern: string): RE2JS | Error {
  const cost = estimatePatternCost(pattern);
  if (cost.instructions > MAX_PATTERN_PROGRAM)
    return new PatternTooComplexError(
      `compiles to more than ${MAX_PATTERN_PROGRAM} instructions (large repeat counts such as {999} do); simplify it`,
    );
  if (cost.folded > MAX_PATTERN_FOLDED)
    return new PatternTooComplexError(
      `has character classes too wide to match case-insensitively (more than ${MAX_PATTERN_FOLDED.toLocaleString("en")} characters, e.g. [\\x{80}-\\x{10FFFF}]); narrow them`,
    );
  try {
    compiles += 1;
    const re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    // The estimate errs high; this is the compiler's own count, in case it ever does not.
    if (programSize(re) > MAX_PATTERN_PROGRAM)
      return new PatternTooComplexError(
        `compiles to more than ${MAX_PATTERN_PROGRAM} instructions (large repeat counts such as {999} do); simplify it`,
      );
    return re;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Repository patterns run in linear time (RE2 semantics through re2js): a pattern such as
 * `^(a+)+$` cannot backtrack catastrophically and freeze the process for every other tenant.
 * A pattern is sized from its text before it is compiled, and its verdict is kept, a refusal as much as
 * a compiled pattern (the same file is read for every job of its repository).
 */
export function compileTitlePattern(pattern: string): RE2JS {
  if (pattern.length > MAX_TITLE_PATTERN_CHARS)
    throw new PatternTooComplexError(`is longer than ${MAX_TITLE_PATTERN_CHARS} characters`);
  let verdict = verdicts.get(pattern);
  if (verdict)
    verdicts.delete(pattern); // moved to the most recently used end below
  else {
    verdict = judgeTitlePattern(pattern);
    if (verdicts.size >= VERDICT_CACHE_SIZE) verdicts.delete(verdicts.keys().next().value!);
  }
  verdicts.set(pattern, verdict);
  if (verdict instanceof Error) throw verdict;
  return verdict;
}
