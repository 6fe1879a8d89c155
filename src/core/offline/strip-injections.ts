/**
 * Instructions aimed at the scorer (the patterns are data in signals.ts): which patterns a text can match at
 * all, found by one pass over their hint words, and the text with every sentence that carries one blanked.
 */
import { INJECTION_PATTERNS, INJECTION_RULES } from "./signals.js";

const PREFIX_HINTS = new Set(["evaluat", "grad"]);

/**
 * Every hint word any injection rule needs, in one expression (plurals and, for "evaluat"/"grad",
 * any ending allowed): one pass of it tells which patterns are worth running.
 */
const INJECTION_HINT_RE = new RegExp(
  [...new Set(INJECTION_RULES.flatMap((r) => r.needs))]
    .sort((a, b) => b.length - a.length)
    .map((word) => {
      const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (!/^\w/.test(word)) return escaped;
      return `\\b${escaped}${PREFIX_HINTS.has(word) ? "\\w*" : "s?"}\\b`;
    })
    .join("|"),
  "gi",
);

/** A hint as the rules spell it: lower case, one plural "s" dropped, "evaluator"/"grading" cut to their stem. */
function hintKey(word: string): string {
  const w = word.toLowerCase();
  for (const prefix of PREFIX_HINTS) if (w.startsWith(prefix)) return prefix;
  // Phrases keep their last letter ("act as" is not a plural).
  return w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.includes(" ") ? w.slice(0, -1) : w;
}

/** Indexes of the injection patterns worth running on this text (exported for the gate test). */
export function injectionPatternsToRun(text: string): number[] {
  const hints = new Set<string>();
  INJECTION_HINT_RE.lastIndex = 0;
  for (let m = INJECTION_HINT_RE.exec(text); m; m = INJECTION_HINT_RE.exec(text)) hints.add(hintKey(m[0]));
  if (hints.size === 0) return [];
  const run: number[] = [];
  INJECTION_RULES.forEach((rule, i) => {
    if (rule.needs.some((h) => hints.has(h))) run.push(i);
  });
  return run;
}

const INJECTION_GLOBAL = INJECTION_PATTERNS.map(
  (p) => new RegExp(p.source, p.flags.includes("g") ? p.flags : p.flags + "g"),
);

/** Blank every sentence that contains an instruction to the scorer. Returns the text and whether any was found. */
export function stripInjections(text: string): { text: string; found: boolean } {
  let found = false;
  let out = text;
  const candidates = injectionPatternsToRun(text);
  if (candidates.length === 0) return { text, found };
  // Testing is much cheaper than replacing: only rebuild the text when some pattern matches.
  if (!candidates.some((i) => INJECTION_PATTERNS[i]!.test(text))) return { text, found };
  for (const i of candidates) {
    out = out.replace(INJECTION_GLOBAL[i]!, (match) => {
      found = true;
      return " ".repeat(match.length);
    });
  }
  if (!found) return { text, found };
  // Drop the rest of each sentence that carried an instruction: its keywords are part of the attempt.
  const marked = text.split(/(?<=[.!?\n])/);
  let pos = 0;
  const kept: string[] = [];
  for (const sentence of marked) {
    const slice = out.slice(pos, pos + sentence.length);
    pos += sentence.length;
    kept.push(slice === sentence ? sentence : "\n");
  }
  return { text: kept.join(""), found };
}
