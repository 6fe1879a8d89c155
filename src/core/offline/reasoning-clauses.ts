/**
 * What a persona's reasoning may say about the evidence and about what moved the consensus, and only what is true
 * of the reading the report shows: quotes in the author's words, absences only where the finder's recall is
 * measured, the judge's drivers only where the reading agrees with them.
 */
import { PERSONA_RECORDS } from "../persona-records.js";
import type { PersonaId } from "../personas.js";
import { contributions, FEATURES, type JudgeModel } from "./judge-model.js";
import type { TaskReading } from "./read-task.js";
import { QUOTE_SHOWN, type Evidence, type EvidenceType } from "./read-evidence.js";
import { isSevere, type TaskStructure } from "./read-structure.js";

/** Below this confidence the reader's kind is said as a guess ("It may be a question …"). */
const SURE_KIND = 0.65;
export const uncertain = (r: TaskReading, kind: TaskStructure["kind"]) =>
  r.reading.kind === kind && r.reading.kindConfidence < SURE_KIND;

/**
 * What the persona relies on, quoted in the author's words ("Demand: “Twelve enterprise customers asked…”"),
 * and, only for evidence the reader finds reliably (measured), what it looked for and did not find, said as
 * the reader's finding. At most two quotes, so the reasoning stays readable.
 */
export function evidenceSentence(
  r: TaskReading,
  persona: PersonaId,
  kind: TaskStructure["kind"],
): string | undefined {
  const byType = new Map<EvidenceType, Evidence>(r.reading.evidence.map((e) => [e.type, e]));
  const quotes = PERSONA_RECORDS[persona].quotes
    .filter(([type]) => byType.has(type))
    .slice(0, 2)
    .map(([type, label]) => quoted(label, byType.get(type)!));
  const parts: string[] = [];
  // A quote closes its own sentence; anything else (a picture named without one) needs the full stop.
  if (quotes.length) parts.push(quotes.join("; ") + (quotes.at(-1)!.endsWith("”") ? "" : "."));
  // Absences are stated only for evidence whose finder's recall, measured on the held-out third of the
  // annotated descriptions, is at least 0.85: steps (0.86). Demand (no examples there), acceptance (0.50)
  // and error output (0.82) are quoted when found but never claimed missing.
  // Only of a report read as a bug: "It may be a bug report" is not sure enough to say what it lacks.
  if (
    persona === "architect" &&
    kind === "bug" &&
    !uncertain(r, kind) &&
    !byType.has("steps") &&
    !byType.has("trace") &&
    // A code example is how many projects ask a bug to be reproduced ("a minimal example").
    !byType.has("code")
  )
    parts.push("I found no steps to reproduce.");
  return parts.join(" ") || undefined;
}

/**
 * A screenshot has no words of the author's but its description: its alt text is quoted where the author wrote
 * one; markup (`<img width="460" src="…">`) is not something to read, so a bare picture is only named.
 */
const ALT_RE = /!\[([^\]]*)\]|\balt\s*=\s*["']([^"']*)["']/i;
const GENERIC_ALT_RE =
  /^(?:image|img|screenshot|screen ?shot\b.*|picture|photo|untitled|grafik|bild|imagen|изображение)$/i;

function quoted(label: string, e: Evidence): string {
  if (e.type !== "screenshot") return `${label}: “${shorten(e.quote)}”`;
  const m = ALT_RE.exec(e.quote);
  const alt = (m?.[1] ?? m?.[2] ?? "").trim();
  return /\p{L}{3}/u.test(alt) && !GENERIC_ALT_RE.test(alt)
    ? `${label}: “${shorten(alt)}”`
    : `${label} attached`;
}

function shorten(quote: string): string {
  return quote.length <= QUOTE_SHOWN ? quote : `${quote.slice(0, QUOTE_SHOWN - 1).trimEnd()}…`;
}

/** The structural features that moved the consensus most, in words, for the product persona's summary. */
const FEATURE_WORDS: Record<string, [up: string, down: string]> = {
  "kind.bug": ["it is a bug report", "it is not a bug report"],
  "kind.chore": ["it is maintenance work", "it is not maintenance work"],
  "kind.docs": ["it is a documentation task", ""],
  "kind.question": ["", "it is a question rather than a request"],
  "severity.severe": ["the defect is severe", ""],
  "title.version": ["the title names a version", ""],
  own_words: ["the author wrote a full description", "the description is short"],
  template_share: ["", "much of the description is template text"],
  "evidence.steps": ["it has steps to reproduce", ""],
  "evidence.trace": ["it has error output", ""],
  "evidence.acceptance": ["it says what done looks like", ""],
  "evidence.demand": ["it gives numbers about demand", ""],
  "evidence.versions": ["it names versions", ""],
  hype: ["", "it makes claims of value without evidence"],
  "title.question": ["", "the title is a question"],
};

/** How much of a description must be unanswered template before a reasoning calls it template text. */
const PROMPT_SHARE_SAID = 1 / 3;

/** The reading's evidence type behind each evidence feature the judge counts. */
const FEATURE_EVIDENCE: Record<string, EvidenceType> = {
  "evidence.steps": "steps",
  "evidence.trace": "trace",
  "evidence.acceptance": "acceptance",
  "evidence.demand": "demand",
  "evidence.versions": "versions",
};

/**
 * Whether a feature's words are true of what the reading tells the user. The judge's features come from the
 * structural reading, whose kind and evidence are cruder than the reading's (a heading asks for steps; a
 * title word says bug where the kind model says question): "it is a bug report" beside "It reads as a
 * question" would contradict the report, and "it has steps" where no steps are quoted cannot be checked.
 */
function trueOfReading(name: string, up: boolean, r: TaskReading): boolean {
  const kind = r.reading.kind;
  if (name.startsWith("kind.")) {
    const said = name.slice("kind.".length);
    // The words say "it is a bug report" or "it is not a bug report"; of a question, that it is one.
    const saysItIs = said === "question" ? !up : up;
    return saysItIs ? kind === said : kind !== said;
  }
  // A severe defect is said only of a report read as a bug with that severity (a compiler's "fatal error" in a
  // question is not a crash).
  if (name === "severity.severe") return !up || (kind === "bug" && isSevere(r.reading.severity));
  const type = FEATURE_EVIDENCE[name];
  return !type || !up || r.reading.evidence.some((e) => e.type === type);
}

export function drivers(r: TaskReading, model: JudgeModel): string | undefined {
  const c = contributions(model, r.features);
  const ranked = c
    .map((v, i) => ({ v, name: FEATURES[i]!.name }))
    .filter((x) => Math.abs(x.v) >= 0.15 && FEATURE_WORDS[x.name]?.[x.v > 0 ? 0 : 1])
    .filter((x) => trueOfReading(x.name, x.v > 0, r))
    // The fitted feature counts every heading; "template text" is said only where a third of the
    // description is the template's own, unanswered (see promptShare).
    .filter((x) => x.name !== "template_share" || r.structure.promptShare >= PROMPT_SHARE_SAID)
    .sort((a, b) => Math.abs(b.v) - Math.abs(a.v))
    .slice(0, 2);
  if (ranked.length === 0) return undefined;
  return ranked.map((x) => FEATURE_WORDS[x.name]![x.v > 0 ? 0 : 1]).join(", and ");
}
