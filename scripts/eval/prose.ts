/**
 * What the report says (issue 35, `npm run eval -- --prose`): pure measures over persona reasonings, aligned with
 * the outside measure used on unseen issues (../shared/tools/report-worth.mjs) where that documents them:
 * - boilerplate: a sentence that quotes nothing, whose blanked form (quotes, parentheses and numbers blanked,
 *   whitespace squeezed, lowercased) recurs among quote-free sentences of 5% or more of the reports;
 * - echoes: reports in which two personas say the same blanked sentence;
 * - grounded: among tasks with 200+ characters of description, reports in which at least three personas quote
 *   3+ words of the task's own text;
 * - misquotes: quoted spans of 3+ words not in the task's text.
 * Where this differs from report-worth.mjs: sentences are not split inside a quoted span (report-worth splits
 * at any ". " before a capital, also inside a quote), and a span cut with "…" must have its parts in the text
 * in order (report-worth only asks that each part be somewhere). Also counted here: spans of 1-2 words not in
 * the text, reports stating an absence, and how often the acceptance estimate is said in one report.
 */

/** A quoted span as report-worth.mjs reads one: “…”, "…" or `…`, 3+ characters inside. */
const QUOTE_RE = /“([^”]{3,})”|"([^"]{3,})"|`([^`]{3,})`/g;
const OPENERS: Record<string, string> = { "“": "”", '"': '"', "`": "`" };

export interface ProseInput {
  title: string;
  description: string;
  /** The five personas' reasonings, in any fixed order. */
  reasoning: readonly string[];
}

const squeeze = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Sentences: a break after [.!?] (or after a quote that ends with one) followed by whitespace and a capital or
 * an opening quote, or at the end; never inside a quoted span (“…”, "…", `…`).
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let closer: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (closer !== undefined) {
      if (c !== closer) continue;
      closer = undefined;
      // A quote that ends a sentence ("… click Save.” Next") ends it after its closing mark.
      const m = /[.!?]$/.test(text.slice(0, i)) ? /^\s+(?=[A-Z“"])/.exec(text.slice(i + 1)) : null;
      if (m) {
        out.push(text.slice(start, i + 1).trim());
        start = i + 1 + m[0].length;
      }
      continue;
    }
    if (c in OPENERS) {
      // An opener with no closer later is a stray mark, not a span.
      if (text.indexOf(OPENERS[c]!, i + 1) > i) closer = OPENERS[c];
      continue;
    }
    if (c === "." || c === "!" || c === "?") {
      const rest = text.slice(i + 1);
      const m = /^\s+(?=[A-Z“"])/.exec(rest);
      if (m) {
        out.push(text.slice(start, i + 1).trim());
        start = i + 1 + m[0].length;
      }
    }
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

/** The quoted spans of a sentence (without their marks). */
export function quotedSpans(sentence: string): string[] {
  return [...sentence.matchAll(QUOTE_RE)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** The sentence with quotes, parentheses and numbers blanked, whitespace squeezed, lowercased. */
export function blankSentence(sentence: string): string {
  return squeeze(
    sentence
      .replace(QUOTE_RE, "Q")
      .replace(/\([^)]*\)/g, "(Q)")
      .replace(/\d+(?:[.,]\d+)?/g, "N"),
  );
}

/** The task's text as a quote is looked up in: whitespace squeezed, lowercased, markdown marks dropped. */
export function searchableText(title: string, description: string): string {
  return squeeze(`${title} ${description}`).replace(/[*_`#>]/g, "");
}

const wordsIn = (span: string) => squeeze(span).split(" ").filter(Boolean).length;

/**
 * Whether a quoted span is the author's: found in the text after squeezing whitespace; a span cut with "…" (or
 * "...") counts when its parts (of 3+ characters) are found in order.
 */
export function quoteFound(span: string, text: string): boolean {
  const parts = squeeze(span)
    .replace(/[*_`#>]/g, "")
    .split(/…|\.\.\./)
    .map((p) => p.trim().replace(/[.,;:!?]+$/, ""))
    .filter((p) => p.length > 2);
  let from = 0;
  for (const p of parts) {
    const at = text.indexOf(p, from);
    if (at < 0) return false;
    from = at + p.length;
  }
  return true;
}

/** An absence stated as a finding ("I found no steps to reproduce"), outside any quoted span. */
const ABSENCE_RE =
  /\b(?:i found no|i see no|there (?:is|are) no|no (?:steps|acceptance criteria|reproduction|expected|versions?|logs?|evidence)\b|without (?:steps|acceptance criteria|evidence)|nothing of the author's own|almost no text)/i;
export const statesAbsence = (sentence: string) => ABSENCE_RE.test(sentence.replace(QUOTE_RE, "Q"));

/** The acceptance estimate ("maintainers accept tasks like this about 6 times in 10"). */
export const isAcceptanceEstimate = (sentence: string) =>
  /accept tasks like this about \d+ times in 10/i.test(sentence);

export interface ProseFigures {
  reports: number;
  sentences: number;
  boilerplate: number;
  echoReports: number;
  /** Tasks with 200+ characters of description, and those of them where 3+ personas quote the author. */
  described: number;
  grounded: number;
  /** Quoted spans of 3+ words, and those not in the text. */
  spans: number;
  misquotes: number;
  /** Quoted spans of 1-2 words not in the text (report-worth.mjs does not count these). */
  shortMisquotes: number;
  absenceReports: number;
  /** Reports in which two or more personas quote nothing but the title (the same words said persona after persona). */
  titleRepeatReports: number;
  estimates: number;
  reportsWithEstimateTwice: number;
  maxEstimatesInReport: number;
  /** The most common boilerplate sentences (blanked: our templates, never the author's words), with counts. */
  topBoilerplate: [string, number][];
  /** A few misquoted spans, to look at (they may hold the author's words: print them, never commit them). */
  misquoteExamples: string[];
}

export function proseFigures(reports: readonly ProseInput[], share = 0.05): ProseFigures {
  const quoteFree = new Map<string, Set<number>>();
  const split = reports.map((r) => r.reasoning.map(splitSentences));
  const f: ProseFigures = {
    reports: reports.length,
    sentences: 0,
    boilerplate: 0,
    echoReports: 0,
    described: 0,
    grounded: 0,
    spans: 0,
    misquotes: 0,
    shortMisquotes: 0,
    absenceReports: 0,
    titleRepeatReports: 0,
    estimates: 0,
    reportsWithEstimateTwice: 0,
    maxEstimatesInReport: 0,
    topBoilerplate: [],
    misquoteExamples: [],
  };
  reports.forEach((r, k) => {
    const text = searchableText(r.title, r.description);
    const personasOf = new Map<string, Set<number>>();
    let quoting = 0;
    let absence = false;
    let estimates = 0;
    let titleOnly = 0;
    const title = searchableText(r.title, "");
    split[k]!.forEach((sentences, p) => {
      let quotes = 0;
      const all = sentences.flatMap(quotedSpans);
      if (all.length > 0 && all.every((span) => quoteFound(span, title))) titleOnly++;
      for (const s of sentences) {
        const b = blankSentence(s);
        personasOf.set(b, (personasOf.get(b) ?? new Set()).add(p));
        const spans = quotedSpans(s);
        if (spans.length === 0) quoteFree.set(b, (quoteFree.get(b) ?? new Set()).add(k));
        for (const span of spans) {
          const found = quoteFound(span, text);
          if (wordsIn(span) < 3) {
            if (!found) f.shortMisquotes++;
            continue;
          }
          f.spans++;
          if (found) quotes++;
          else {
            f.misquotes++;
            if (f.misquoteExamples.length < 5) f.misquoteExamples.push(span.slice(0, 80));
          }
        }
        if (statesAbsence(s)) absence = true;
        if (isAcceptanceEstimate(s)) estimates++;
      }
      if (quotes > 0) quoting++;
    });
    if ([...personasOf.values()].some((set) => set.size >= 2)) f.echoReports++;
    if (r.description.length >= 200) {
      f.described++;
      if (quoting >= 3) f.grounded++;
    }
    if (absence) f.absenceReports++;
    if (titleOnly >= 2) f.titleRepeatReports++;
    f.estimates += estimates;
    if (estimates > 1) f.reportsWithEstimateTwice++;
    f.maxEstimatesInReport = Math.max(f.maxEstimatesInReport, estimates);
  });
  const min = Math.ceil(reports.length * share);
  for (const sentences of split.flat())
    for (const s of sentences) {
      f.sentences++;
      if ((quoteFree.get(blankSentence(s))?.size ?? 0) >= min) f.boilerplate++;
    }
  f.topBoilerplate = [...quoteFree]
    .filter(([, set]) => set.size >= min)
    .sort((a, b) => b[1].size - a[1].size)
    .slice(0, 8)
    .map(([b, set]) => [b, set.size]);
  return f;
}

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);

/** The figures as rows: [measure, value, target]. */
export function proseRows(f: ProseFigures): [string, string, string][] {
  return [
    [
      "boilerplate sentences",
      `${pct(f.boilerplate, f.sentences)} (${f.boilerplate}/${f.sentences})`,
      "≤ 10%",
    ],
    [
      "reports with a sentence two personas share",
      `${pct(f.echoReports, f.reports)} (${f.echoReports}/${f.reports})`,
      "≤ 2%",
    ],
    [
      "described (200+ chars): 3+ personas quote the author",
      `${pct(f.grounded, f.described)} (${f.grounded}/${f.described})`,
      "≥ 75%",
    ],
    ["misquotes (spans of 3+ words)", `${f.misquotes} of ${f.spans}`, "0"],
    ["misquotes (spans of 1-2 words)", `${f.shortMisquotes}`, "0"],
    ["reports stating an absence", `${pct(f.absenceReports, f.reports)} (${f.absenceReports})`, ""],
    [
      "reports where 2+ personas quote only the title",
      `${pct(f.titleRepeatReports, f.reports)} (${f.titleRepeatReports})`,
      "",
    ],
    [
      "acceptance estimates per report",
      `${(f.estimates / Math.max(1, f.reports)).toFixed(2)} (max ${f.maxEstimatesInReport}, ${f.reportsWithEstimateTwice} reports with 2+)`,
      "≤ 1",
    ],
  ];
}
