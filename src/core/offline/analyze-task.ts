import { language } from "./language.js";
import { stripInjections } from "./strip-injections.js";
import { URL_RE } from "./prose.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
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
import { NEGATION_SPAN, TEMPLATE_BOILERPLATE, type Concept } from "./signals.js";

/** What the offline scorer reads out of a task. Pure data, so each persona can weigh it its own way. */
export interface ConceptHit {
  concept: Concept;
  /** Distinct terms that matched, in order of first appearance (shown in reasoning). */
  terms: string[];
  inTitle: boolean;
}

export interface TaskAnalysis {
  /** Concepts mentioned affirmatively. */
  concepts: ConceptHit[];
  hasStackTrace: boolean;
  spam: string[];
  meta: string[];
  injection: boolean;
  stuffing: boolean;
  /** The title's themes alone (conceptsIn of the title, read with the rest). */
  titleConcepts: ConceptHit[];
  /** Share of letters outside the Latin script, 0..1. */
  nonLatinShare: number;
  /** Latin-script text with almost no English function words: likely another language the lists barely cover. */
  foreignLatin: boolean;
  /**
   * The prose is English in the main (at least 10 English function words, and 15% of the words): a few foreign
   * names or a table in another script do not make the text another language's.
   */
  englishProse: boolean;
}

interface Scan {
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

function scan(text: string): Scan {
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
        if (count > out.maxTermRepeat) out.maxTermRepeat = count;
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

// No pattern here may let two unbounded repeats compete for the same characters (e.g. `\s*\s*`),
// or a description of 64 KiB of newlines turns into seconds of backtracking.
const STACK_LINE_RE =
  /^[ \t]*(?:at[ \t]+[\w$.<>[\]/:-]+[ \t(]|File "[^"\n]*", line \d+|Traceback \(most recent call last\)|Caused by:|Exception in thread|#\d+[ \t]+0x[0-9a-f]+|\^+[ \t]*$)/gim;
const EXCEPTION_RE = /[a-z](?:Exception|Error)[:\s]/;
const MD_IMAGE_RE = /!\[[^\][\n]{0,500}\]\([^)\n]{0,2000}\)/g;
const HTML_TAG_RE = /<\/?[a-z][^>]{0,200}>/gi;
const TITLE_PREFIX_RE =
  /^\s*(?:\[[^\]]{0,40}\]\s*[-:]?\s*|(?:feat|fix|chore|docs|refactor|perf|test|build|ci|style)(?:\([^)]*\))?!?:\s*)+/i;

/**
 * Share of letters outside the Latin script, by code point ranges: one pass, no regex per
 * character (this runs on every task). Symbols, punctuation and emoji are not letters.
 */
function nonLatinLetterShare(text: string): number {
  let latin = 0;
  let other = 0;
  const n = Math.min(text.length, 20_000);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7)
    )
      latin++;
    else if (
      (c >= 0x370 && c < 0x2000) ||
      (c >= 0x2e80 && c < 0xd800) ||
      (c >= 0xf900 && c < 0xfe00) ||
      (c >= 0xff21 && c < 0xffdc)
    )
      other++;
  }
  return latin + other === 0 ? 0 : other / (latin + other);
}

/**
 * The themes one short text names, read as a title is (its tag and any instruction to the scorer left out):
 * the title's subject, or the author's opening sentence.
 */
export function conceptsIn(text: string): ConceptHit[] {
  return affirmedConcepts(scan(stripInjections(text).text.replace(TITLE_PREFIX_RE, "")));
}

/** The concepts a scan found affirmed, each with at most four of its terms as written. */
function affirmedConcepts(t: Scan): ConceptHit[] {
  const concepts: ConceptHit[] = [];
  for (const hit of t.hits.values()) {
    if (hit.affirmed <= 0) continue;
    const terms = hit.terms.filter((x, i, all) => all.indexOf(x) === i).slice(0, 4);
    concepts.push({ concept: hit.concept, terms: terms.filter((x) => !x.includes(" … ")), inTitle: true });
  }
  return concepts;
}

export function analyzeTask(
  title: string,
  description: string,
  md: MarkdownText = readMarkdown(description),
  lang?: string,
): TaskAnalysis {
  const titleInj = stripInjections(title);
  // Read in the whole text: an instruction hidden in a template comment or a code block is still aimed at the scorer.
  const descInj = stripInjections(description);
  const injection = titleInj.found || descInj.found;

  // Each clean-up pass runs only when its cheap substring test says it can match: most issues have
  // no HTML comments, fences or links, and this function runs on every request.
  let hasStackTrace = EXCEPTION_RE.test(md.text);
  let prose = renderMarkdown(md, (block) => {
    STACK_LINE_RE.lastIndex = 0;
    if (!hasStackTrace && STACK_LINE_RE.test(block)) hasStackTrace = true;
    STACK_LINE_RE.lastIndex = 0;
    return "\n";
  });
  if (descInj.found) prose = stripInjections(prose).text;
  prose = prose.replace(STACK_LINE_RE, () => {
    hasStackTrace = true;
    return "\n";
  });
  if (prose.includes("![")) prose = prose.replace(MD_IMAGE_RE, " ");
  if (prose.includes("http") || prose.includes("www.")) prose = prose.replace(URL_RE, " ");
  if (prose.includes("<")) prose = prose.replace(HTML_TAG_RE, " ");
  for (const re of TEMPLATE_BOILERPLATE) if (re.test(prose)) prose = prose.replace(re, " ");

  const cleanTitle = titleInj.text.replace(TITLE_PREFIX_RE, "");
  const t = scan(cleanTitle);
  const d = scan(prose);

  // Stuffing: the same term over and over, or a long run of keywords with no prose between them
  // (natural sentences rarely string more than four or five together).
  const descStuffed =
    (d.maxTermRepeat >= 4 && d.maxTermRepeat / Math.max(d.words, 1) >= 0.08) || d.maxSignalRun >= 7;
  const titleStuffed = t.maxSignalRun >= 6 || (t.maxTermRepeat >= 3 && t.maxTermRepeat / t.words >= 0.25);
  const stuffing = descStuffed || titleStuffed;

  const concepts: ConceptHit[] = [];
  const ids = new Set([...t.hits.keys(), ...(descStuffed ? [] : d.hits.keys())]);
  for (const id of ids) {
    const a = t.hits.get(id);
    const b = descStuffed ? undefined : d.hits.get(id);
    const concept = (a ?? b)!.concept;
    const terms = [...(a?.terms ?? []), ...(b?.terms ?? [])]
      .filter((x, i, all) => all.indexOf(x) === i)
      .slice(0, 4);
    const hit: ConceptHit = { concept, terms, inTitle: (a?.affirmed ?? 0) > 0 };
    // Mentioned only under a negation ("no UI changes"): not a theme of the task.
    if ((a?.affirmed ?? 0) > 0 || (b?.affirmed ?? 0) > 0) {
      hit.terms = terms.filter((x) => !x.includes(" … "));
      concepts.push(hit);
    }
  }

  const nonLatinShare =
    NON_LATIN_RE.test(title) || NON_LATIN_RE.test(prose) ? nonLatinLetterShare(title + " " + prose) : 0;
  // English prose is about a third function words; other languages written in Latin letters have almost none.
  const words = t.words + d.words;
  // Few English words is not enough: logs, tables and version lists have few too. Another language's own
  // commonest words must outnumber English's.
  const foreignLatin =
    nonLatinShare <= 0.5 &&
    d.words >= 12 &&
    (t.englishWords + d.englishWords) / words < 0.06 &&
    (lang ?? language(title, md)) !== "en";

  const english = t.englishWords + d.englishWords;
  const englishProse = english >= 10 && english / Math.max(1, words) >= 0.15;

  return {
    concepts,
    hasStackTrace,
    spam: [...new Set([...t.spam, ...d.spam])],
    meta: [...new Set([...t.meta, ...d.meta])],
    injection,
    stuffing,
    titleConcepts: affirmedConcepts(t),
    nonLatinShare,
    foreignLatin,
    englishProse,
  };
}
