/**
 * What a text is about and what it does, said of its title (or of the author's first sentence where the title is too
 * short), for a persona with nothing of its own (reasoning.ts, offline-scorer.ts). Pure.
 */
import { PERSONA_RECORDS } from "../persona-records.js";
import type { PersonaId } from "../personas.js";
import { quotableAlone } from "./account-sentences.js";
import { claimedKind, type TaskReading } from "./read-task.js";
import { checkable, q, standsIn } from "./reasoning-quotes.js";
import { TITLE_TAG, UPKEEP_TITLE_RE } from "./structure-patterns.js";
import type { AuthorSentence } from "./segments.js";

const PROBLEM_RE =
  /\b(?:fail\w*|crash\w*|errors?|exceptions?|broken|breaks?|bugs?|wrong|incorrect\w*|unexpected\w*|invalid|missing|no longer|not (?:work\w*|shown|showing|displayed|saved|loading|found|possible|supported)|(?:does|do|did|is|are|was|were|can|could|will|would)(?:n['’]?t| not) \w+|can['’]?t|cannot|unable to|stopped|hangs?|freez\w*|leak\w*|slow\w*|throws?|panic\w*)\b/i;

/**
 * How each persona weighs a text where nothing of its own is quoted: a claim of what the text is and from which
 * angle it is weighed, never that the text lacks something (an absence is said only where its finder's recall is
 * at least 0.95, and no theme finder reaches that).
 */
export const ANGLE: Readonly<Record<PersonaId, string>> = {
  product: "weighed for how plannable it is",
  revenue: "weighed for what it is worth in revenue",
  marketing: "weighed for what could be announced",
  ux: "weighed for what people see and do",
  architect: "weighed for what it changes in the code",
};

/**
 * A title that asks to add or change something ("Adding the request id in the exception thrown to the caller", "Log a
 * warning on failed retries", "Ignore missing keystore configuration in reloading", "set … exceptions = true by
 * default"): its problem word is what the change is about, not a problem it reports (fresh readings'
 * contradictions). Verbs that mend ("Fix the crash …") are not among them.
 */
const ADDS_RE =
  /^(?:in\s+)?“(?:please\s+)?(?:add|allow|support|implement|provide|enable|introduce|create|expose|include|extend|offer|log|print|show|display|pass|propagate|record|emit|surface|document|set|make|change|ignore|skip|disable|turn|switch|let|treat|accept|honou?r|respect)(?:s|es|ing)?\b/i;

/**
 * Whether the reader takes the text for a request (the kind model's "feature", at any confidence): its problem
 * words then state the need ("Currently users cannot access the counters"), and the text is not said to report a
 * problem (readers took that for false). The title's line and the ask's frame ask the same question.
 */
export const readAsRequest = (r: TaskReading): boolean => r.reading.kind === "feature";

/** What the text does, said of its title: by the kind where it is sure, else by what the words do. */
export function whatItDoes(r: TaskReading, subject: string): string {
  if (subject === "here") return "Its title is too short to say what it is about";
  // A pull request's title says what it changes ("Fix the crash on …"), not a problem it reports.
  if (r.reading.pullRequest) return `It is about ${subject.replace(/^in /, "")}`;
  // A title that asks ("Deprecated hook ????") is said to ask, whatever kind the model reads: a reader took "It reports
  // a bug in" such a title for false.
  if (/[?？]\s*”$/.test(subject)) return `It asks ${subject.replace(/^in /, "")}`;
  const kind = claimedKind(r);
  if (kind === "bug") return `It reports a bug ${subject}`;
  if (kind === "feature") return `It asks for an enhancement ${subject}`;
  // Upkeep ("Backport the fix for the NPE …", "Remove the broken probe") names a problem it does not report.
  if (
    PROBLEM_RE.test(subject) &&
    !readAsRequest(r) &&
    !ADDS_RE.test(subject) &&
    !UPKEEP_TITLE_RE.test(r.task)
  )
    return `It reports a problem ${subject}`;
  return `It is about ${subject.replace(/^in /, "")}`;
}

/**
 * What the text is about, in the author's words: the title without its tag ("[Bug]: "), or where it has fewer than
 * two words, the description's first sentence; "here" where neither will do.
 */
/** A title's tags ("[Bug]: ", "feat(ui): "), read past to its words. */
const LEADING_TAGS_RE = new RegExp(String.raw`^\s*${TITLE_TAG}+`);

/** Words of a title, a Chinese or Japanese character counting as one ("添加支付宝和微信在线支付" is no one-word title). */
const wordCount = (t: string) =>
  t.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu)?.length ?? 0;

export function subjectOf(
  r: Pick<TaskReading, "task" | "description">,
  text: string,
  first?: string,
): string {
  const title = r.task.replace(LEADING_TAGS_RE, "").trim();
  for (const candidate of [title, first ?? ""]) {
    // One sentence of it: a quote that ran across a full stop would read as two sentences.
    const end = candidate.search(/[.!?](?=\s)/);
    const one = end > 0 ? `${candidate.slice(0, end)}…` : candidate;
    if (wordCount(one) >= 2 && standsIn(one, text)) return `in ${q(one, 70)}`;
  }
  return "here";
}

/**
 * The first sentence of the author's account, where a short title needs one to say what the text is about: not a
 * form's field list ("OpenCV python version: 4.5.4.6 Operating System / Platform: …") nor a greeting or an apology
 * ("I'm very sorry that I'm using the issue tracker to ask this"), which a fresh maintainer's reading found said as
 * what the issue "is about".
 */
export function firstAccount(sentences: readonly AuthorSentence[]): string | undefined {
  return sentences.find(quotableAlone)?.text;
}

/**
 * A persona's sentence for a text with nothing for it (or nothing to weigh at all). A title with no description
 * (`emptyDescription`) is said as what it is about, not as holding nothing for the persona: "Nothing in “다크 모드 추가”
 * says what people see" was false (it asks for dark mode), and no finder reads a title's every language.
 */
export function nothingSentence(
  r: Pick<TaskReading, "task" | "description" | "segments">,
  persona: PersonaId,
  emptyDescription = false,
): string {
  // Said of the title only: the text was read as junk, a status ping or an unfilled template, so a sentence of it
  // is no subject ("Nothing in “They're just here for guidance”", a template's aside, was read as the author's).
  const subject = subjectOf(r, checkable(`${r.task} ${r.description}`));
  if (emptyDescription && subject !== "here")
    return `It is about ${subject.replace(/^in /, "")}, ${ANGLE[persona]}.`;
  return PERSONA_RECORDS[persona].voice.nothing.replace("{subject}", subject);
}
