/**
 * The concept scan: a text's words matched against the concept, spam and tracker-note terms (`concept-terms.ts`,
 * `words/*.json`) in one pass, with negations ("no UI changes", "the API will not change") taking a mention back,
 * and the counts that tell prose from keyword stuffing. analyzeTask scans the title and the description's prose
 * with it; the reasoning scans the author's sentences.
 */
import languages from "./words/languages.json" with { type: "json" };
import negation from "./words/negation.json" with { type: "json" };
import {
  BOUNDARY,
  exact,
  FRAGMENTS,
  NEGATOR_SET,
  NON_LATIN_RE,
  PREFIX_FIRST_CHARS,
  PREFIX_KEY,
  prefixed,
  stem,
  TOKEN_RE,
  type Entry,
} from "./concept-terms.js";
import { NEGATION_SPAN, type Concept } from "./signals.js";

/** What the offline scorer reads out of a task. Pure data, so each persona can weigh it its own way. */
export interface ConceptHit {
  concept: Concept;
  /** Distinct terms that matched, in order of first appearance (shown in reasoning). */
  terms: string[];
  inTitle: boolean;
}

export interface Scan {
  /** `affirmed` counts mentions not under a negation: a later "will not change" can take one back. */
  hits: Map<string, { concept: Concept; terms: string[]; affirmed: number }>;
  spam: Set<string>;
  meta: Set<string>;
  words: number;
  /** English function words ("the", "to", "is"), to tell English prose from other Latin-script languages. */
  englishWords: number;
  /** Words covered by concept terms, and the most repeated concept term's count. */
  signalWords: number;
  maxTermRepeat: number;
  /** That term, as the concept list writes it. */
  maxTerm: string;
  /** Longest run of consecutive words that are all signal terms: prose has other words between them. */
  maxSignalRun: number;
}

function normalise(text: string): string {
  const lower = text.toLowerCase();
  // Contractions only matter for negation; most texts have none, so skip the three passes.
  if (!lower.includes("'") && !lower.includes("’")) return lower;
  return lower
    .replace(/\bcan['’]t\b/g, "cannot")
    .replace(/\bwon['’]t\b/g, "will not")
    .replace(/n['’]t\b/g, " not");
}

/** English's commonest short words (`words/languages.json`). */
const ENGLISH_FUNCTION_WORDS: ReadonlySet<string> = new Set(languages.englishFunctionWords);

/** How many words back a negation that follows the word ("X will not change") reaches. */
const POST_NEGATION_REACH = 5;
const UNCHANGED: ReadonlySet<string> = new Set(negation.unchanged);
const CHANGE_VERBS: ReadonlySet<string> = new Set(negation.changeVerbs);
const CHANGED: ReadonlySet<string> = new Set(negation.changed);

/** Length of a "not change"-style phrase starting at token i, or 0. Tokens are lower-case and stemmed. */
function postNegation(tokens: readonly string[], i: number): number {
  const t = tokens[i]!;
  if (UNCHANGED.has(t)) return 1;
  if (t === "not" || t === "never") {
    const next = tokens[i + 1];
    if (next !== undefined && CHANGE_VERBS.has(next)) return 2;
    if (next === "be" && CHANGED.has(tokens[i + 2] ?? "")) return 3;
  }
  if (
    (t === "stay" || t === "remain") &&
    (tokens[i + 1] === "the" ? tokens[i + 2] === "same" : UNCHANGED.has(tokens[i + 1] ?? ""))
  ) {
    return tokens[i + 1] === "the" ? 3 : 2;
  }
  return 0;
}

/** What one lower-case token means to the scanner: looked up once per distinct token, then cached. */
interface TokenInfo {
  stemmed: string;
  boundary: boolean;
  english: boolean;
  negator: boolean;
  /** Terms starting with this token (longest first), and prefix terms ("monetiz*") it starts. */
  exact: readonly Entry[] | undefined;
  prefixed: readonly Entry[] | undefined;
}

/**
 * Word lists are fixed, so a token's meaning never changes: caching it turns five set and map lookups
 * plus stemming per word into one lookup. Bounded (a real vocabulary fits), so hostile text of unique
 * words cannot grow it past a few MB.
 */
const TOKEN_INFO_LIMIT = 20_000;
const tokenInfo = new Map<string, TokenInfo>();

function infoFor(token: string): TokenInfo {
  const cached = tokenInfo.get(token);
  if (cached) return cached;
  const boundary = BOUNDARY.has(token);
  const stemmed = boundary ? token : stem(token);
  let pre: Entry[] | undefined;
  if (stemmed.length >= PREFIX_KEY && PREFIX_FIRST_CHARS.has(stemmed.charCodeAt(0))) {
    pre = prefixed.get(stemmed.slice(0, PREFIX_KEY))?.filter((entry) => stemmed.startsWith(entry.tokens[0]!));
    if (pre?.length === 0) pre = undefined;
  }
  const info: TokenInfo = {
    stemmed,
    boundary,
    english: ENGLISH_FUNCTION_WORDS.has(stemmed),
    negator: NEGATOR_SET.has(stemmed),
    exact: exact.get(stemmed),
    prefixed: pre,
  };
  // Numbers (issue numbers, versions, ids) rarely repeat: caching them would only push words out.
  const c = token.charCodeAt(0);
  if (c >= 48 && c <= 57) return info;
  if (tokenInfo.size >= TOKEN_INFO_LIMIT) tokenInfo.clear();
  tokenInfo.set(token, info);
  return info;
}

export function scan(text: string): Scan {
  const lower = normalise(text);
  const raw = lower.match(TOKEN_RE) ?? [];
  const infos = raw.map(infoFor);
  const tokens = infos.map((info) => info.stemmed);
  const out: Scan = {
    hits: new Map(),
    spam: new Set(),
    meta: new Set(),
    words: 0,
    englishWords: 0,
    signalWords: 0,
    maxTermRepeat: 0,
    maxTerm: "",
    maxSignalRun: 0,
  };
  let coveredUntil = -1;
  let run = 0;
  const termCounts = new Map<string, number>();
  let lastBoundary = -1;
  let lastNegator = -Infinity;
  // Affirmed mentions in the current clause, for negations that come after the word.
  let recent: { hit: { terms: string[]; affirmed: number }; i: number; surface: string }[] = [];

  const record = (entry: Entry, i: number, surface: string) => {
    switch (entry.kind) {
      case "concept": {
        const negated = lastNegator > lastBoundary && i - lastNegator <= NEGATION_SPAN;
        const concept = entry.concept!;
        let hit = out.hits.get(concept.id);
        if (!hit) {
          hit = { concept, terms: [], affirmed: 0 };
          out.hits.set(concept.id, hit);
        }
        if (!negated) {
          hit.affirmed++;
          recent.push({ hit, i, surface });
        }
        const shown = negated ? `${raw[lastNegator]} … ${surface}` : surface;
        if (!hit.terms.includes(shown) && hit.terms.length < 4) hit.terms.push(shown);
        out.signalWords += entry.tokens.length;
        coveredUntil = Math.max(coveredUntil, i + entry.tokens.length);
        const count = (termCounts.get(entry.term) ?? 0) + 1;
        termCounts.set(entry.term, count);
        if (count > out.maxTermRepeat) {
          out.maxTermRepeat = count;
          out.maxTerm = entry.term;
        }
        break;
      }
      case "spam":
        out.spam.add(entry.term);
        break;
      case "meta":
        out.meta.add(entry.term);
        break;
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const info = infos[i]!;
    if (info.boundary) {
      lastBoundary = i;
      recent = [];
      continue;
    }
    out.words++;
    if (info.english) out.englishWords++;
    // "The public API will not change", "the UI stays the same": the mention just before is ruled out.
    const after = recent.length > 0 ? postNegation(tokens, i) : 0;
    if (after > 0) {
      for (const r of recent) {
        if (i - r.i > POST_NEGATION_REACH) continue;
        r.hit.affirmed--;
        const plain = r.hit.terms.indexOf(r.surface);
        if (plain >= 0 && r.hit.affirmed === 0) r.hit.terms.splice(plain, 1);
        const shown = `${r.surface} … ${raw.slice(i, i + after).join(" ")}`;
        if (!r.hit.terms.includes(shown) && r.hit.terms.length < 4) r.hit.terms.push(shown);
      }
      recent = [];
    }
    const candidates = info.exact;
    // A word inside a longer term already matched means that term ("leak" in "memory leak" is performance,
    // not security): themes start only where no earlier term still covers the word.
    const inside = i < coveredUntil;
    if (candidates) {
      for (const entry of candidates) {
        if (inside && entry.kind === "concept") continue;
        const n = entry.tokens.length;
        let ok = true;
        for (let k = 1; k < n; k++) {
          if (tokens[i + k] !== entry.tokens[k]) {
            ok = false;
            break;
          }
        }
        if (ok) record(entry, i, n === 1 ? raw[i]! : raw.slice(i, i + n).join(" "));
      }
    }
    if (info.prefixed)
      for (const entry of info.prefixed) if (!(inside && entry.kind === "concept")) record(entry, i, raw[i]!);
    if (info.negator) lastNegator = i;
    if (i < coveredUntil) {
      run++;
      if (run > out.maxSignalRun) out.maxSignalRun = run;
    } else run = 0;
  }

  // Scripts without spaces, inflected stems and other languages' phrases ("mode sombre") are matched as
  // substrings, only when the text is not plain English.
  if (NON_LATIN_RE.test(lower) || (out.words > 0 && out.englishWords / out.words < 0.06)) {
    for (const f of FRAGMENTS) {
      if (!lower.includes(f.fragment)) continue;
      if (f.kind === "spam") {
        out.spam.add(f.fragment);
        continue;
      }
      const concept = f.concept!;
      const hit = out.hits.get(concept.id) ?? { concept, terms: [], affirmed: 0 };
      hit.affirmed++;
      if (hit.terms.length < 4 && !hit.terms.includes(f.fragment)) hit.terms.push(f.fragment);
      out.hits.set(concept.id, hit);
    }
  }
  return out;
}

/** The concepts a scan found affirmed, each with at most four of its terms as written. */
export function affirmedConcepts(t: Scan): ConceptHit[] {
  const concepts: ConceptHit[] = [];
  for (const hit of t.hits.values()) {
    if (hit.affirmed <= 0) continue;
    const terms = hit.terms.filter((x, i, all) => all.indexOf(x) === i).slice(0, 4);
    concepts.push({ concept: hit.concept, terms: terms.filter((x) => !x.includes(" … ")), inTitle: true });
  }
  return concepts;
}
