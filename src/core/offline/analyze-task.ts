import { language } from "./language.js";
import { stripInjections } from "./strip-injections.js";
import { URL_RE } from "./prose.js";
import { readMarkdown, renderMarkdown, type MarkdownText } from "./read-markdown.js";
import { NON_LATIN_RE } from "./concept-terms.js";
import { affirmedConcepts, scan, type ConceptHit } from "./scan-concepts.js";
import { TEMPLATE_BOILERPLATE } from "./signals.js";

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

// No pattern here may let two unbounded repeats compete for the same characters (e.g. `\s*\s*`),
// or a description of 64 KiB of newlines turns into seconds of backtracking.
const STACK_LINE_RE =
  /^[ \t]*(?:at[ \t]+[\w$.<>[\]/:-]+[ \t(]|File "[^"\n]*", line \d+|Traceback \(most recent call last\)|Caused by:|Exception in thread|#\d+[ \t]+0x[0-9a-f]+|\^+[ \t]*$)/gim;
const EXCEPTION_RE = /[a-z](?:Exception|Error)[:\s]/;
const MD_IMAGE_RE = /!\[[^\][\n]{0,500}\]\([^)\n[]{0,2000}\)/g;
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
export function conceptsIn(text: string, injectionFree = false): ConceptHit[] {
  // `injectionFree`: the caller knows the text holds no instruction to the scorer (its task had none), so the
  // search for one is not run again.
  return affirmedConcepts(
    scan((injectionFree ? text : stripInjections(text).text).replace(TITLE_PREFIX_RE, "")),
  );
}

/** How many identifiers ("CVE-2019-20444") open with the term: the term, a hyphen and a digit. */
function identifiersOf(prose: string, term: string): number {
  if (!/^[a-z]+$/.test(term)) return 0;
  return prose.match(new RegExp(`(?<![\\p{L}\\p{N}])${term}-\\d`, "giu"))?.length ?? 0;
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
  // A list of identifiers ("CVE-2019-20444, CVE-2019-20445 …", "HDFS-101, HDFS-102") names things, it does not
  // repeat a word: those are not counted as the term's repeats.
  // The title's own subject ("… Encryption … fails": "encryption" four times in a short report) is what the
  // report is about, not a keyword piled up: of 25 public texts the repeat rule marked, nearly all repeated their
  // title's word. Piled-up keywords still read as a run of them (maxSignalRun).
  const subject = d.maxTermRepeat >= 4 && cleanTitle.toLowerCase().includes(d.maxTerm);
  const repeats = d.maxTermRepeat >= 4 && !subject ? d.maxTermRepeat - identifiersOf(prose, d.maxTerm) : 0;
  const descStuffed = (repeats >= 4 && repeats / Math.max(d.words, 1) >= 0.08) || d.maxSignalRun >= 7;
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
