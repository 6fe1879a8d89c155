import type { Reading } from "../reading.schema.js";
import { analyzeTask, type TaskAnalysis } from "./analyze-task.js";
import { calibrationUsed, type RepositoryCalibration } from "./calibration.js";
import { findAsk } from "./find-ask.js";
import { KIND_MODEL } from "./kind-model.data.js";
import { adjustmentFor, KIND_CLASSES, predictKind, type KindModel } from "./kind-model.js";
import { language } from "./language.js";
import { readEvidence } from "./read-evidence.js";
import { readMarkdown, type MarkdownText } from "./read-markdown.js";
import { readStructure, withJunkFlags } from "./read-structure.js";
import type { TaskStructure } from "./task-structure.js";
import { SOFT_SPAM_TERMS } from "./signals.js";
import { readable } from "./unreadable-text.js";

const SOFT_SPAM = new Set(SOFT_SPAM_TERMS);
const CONTACT_RE = /\+\d[\d\s().-]{8,}\d|\bwhats ?app\b|\btelegram\b|\bcall (?:us|now)\b|\bcontact us\b/i;

/**
 * Advertising needs corroboration: a spam word alone is often a project's own word ("replica" in a
 * distributed-training bug), so it counts only beside another spam cue or a way to reach the advertiser (a phone number,
 * a messaging handle, "call now") or beside a second, different spam word of the strong kind. Links do
 * not count: real reports link to code and logs.
 */
function isAdvertising(spamTerms: readonly string[], text: string): boolean {
  const strong = spamTerms.filter((t) => !SOFT_SPAM.has(t)).length;
  const soft = spamTerms.length - strong;
  const contact = CONTACT_RE.test(text);
  return strong >= 2 || soft >= 2 || (strong >= 1 && (soft >= 1 || contact));
}
/** Words a tracker's own note is written in at most: "Oops, wrong repo", "Why did my ticket get closed?". */
const TRACKER_NOTE_WORDS = 100;

/**
 * A note about the tracker itself ("wrong repo", "please delete this"): the note is the whole text, or says so
 * more than once. A long report that apologises in passing ("my apologies if this is a duplicate of another
 * issue") is still the report.
 */
function isTrackerNote(metaTerms: readonly string[], description: string): boolean {
  if (metaTerms.length === 0) return false;
  if (metaTerms.length >= 2) return true;
  let words = 0;
  for (const _ of description.matchAll(/\S+/g)) if (++words > TRACKER_NOTE_WORDS) return false;
  return true;
}

/** What the structure's junk reading takes from the analysis: advertising and a tracker's own note. */
export function junkFlags(
  analysis: TaskAnalysis,
  task: string,
  description: string,
): { spam: boolean; trackerNote: boolean } {
  return {
    spam: isAdvertising(analysis.spam, `${task}\n${description}`),
    trackerNote: isTrackerNote(analysis.meta, description),
  };
}

/**
 * Junk needs strong evidence of its own, separate from the kind model: advertising, a tracker's own note,
 * an accidental or test post, a title that is a placeholder or has no words. Short or unfilled reports are
 * thin, not junk (a one-line real bug report is still a bug report).
 */
const STRONG_JUNK = new Set([
  "advertising",
  "tracker_note",
  "accident_or_test",
  "placeholder_title",
  "no_title",
]);
/** Docs, chore and refactor work, which the model does not know, is read from the title's tag or words. */
const TAGGED_KINDS = new Set(["docs", "chore", "refactor"]);
/** The confidence stated for a kind read from the title's rules rather than the model (not a fitted probability). */
const TAGGED_CONFIDENCE = 0.9;

/** The task's structure read once: `base` without the junk flags (what the kind model reads), `structure` with them. */
export interface StructureRead {
  base: TaskStructure;
  structure: TaskStructure;
  /** The description's markdown, read once (comments out, code blocks found), for every finder. */
  md: MarkdownText;
  /** The language of the title and the author's prose. */
  language: string;
}

/** Read the structure once, and overlay the analysis's junk flags (advertising, a tracker's note). */
export function readStructures(
  task: string,
  description: string,
  analysis: TaskAnalysis,
  md: MarkdownText,
  lang: string,
): StructureRead {
  const base = readStructure(task, description, undefined, md);
  return {
    base,
    structure: withJunkFlags(base, junkFlags(analysis, task, description)),
    md,
    language: lang,
  };
}

/**
 * A pull request's own words: "this PR", "this pull request" (not a link's text nor another change named: "caused by
 * [this PR](…)", "since this PR", "identified in this PR: [link]", "changes were made as part of this PR"; readings
 * took bug reports so read for a pull request's text), its checklist's heading, or "Fixes #123" on a line of its own
 * ("the PR" or "my PR" is as often an issue's, about another change). Blanks are `[ \t]`, not `\s`: under /m, `^\s*`
 * runs from every line's start over all the blank lines after it (64 KiB of newlines took 18 s).
 */
export const PULL_REQUEST_RE =
  /(?<!\[)(?<!\b(?:by|since|see|reverts?|reverting) )(?<!\b(?:identified|found|reported|raised|discussed|seen|noticed|made|introduced|mentioned|suggested|proposed) (?:in|as part of) )\bthis (?:PR|pull request)\b(?!\]\()(?!\s*:\s*\[?https?:\/\/|\s*:\s*\[)|^[ \t]*#{1,6}[ \t]*pull request\b|^[ \t]*(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)[ \t]*:?[ \t]+(?:#\d+|https:\/\/github\.com\/\S+\/issues\/\d+)/im;

/**
 * What the reader found in a task: its kind (from the trained model, or the author's own tag for docs, chore
 * and refactor work, or junk on strong evidence), a bug's severity, the evidence with the author's words,
 * and the language. The same for every scorer: it costs microseconds and needs no model. `read` is the
 * structure already read (readTask passes it), so the text is not read again.
 */
export function readReading(
  task: string,
  description: string,
  read?: StructureRead,
  model: KindModel = KIND_MODEL,
  calibration?: RepositoryCalibration,
): Reading {
  // readTask passes the structure of text it has already made readable: only a direct call checks for noise.
  if (!read) {
    task = readable(task);
    description = readable(description);
    const md = readMarkdown(description);
    const lang = language(task, md);
    read = readStructures(task, description, analyzeTask(task, description, md, lang), md, lang);
  }
  const s = read.structure;
  const probs = predictKind(model, task, description, calibration?.kind, read.base, read.md);
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[best]!) best = i;
  let kind: Reading["kind"] = KIND_CLASSES[best]!;
  let kindConfidence = probs[best]!;
  if (s.junk && STRONG_JUNK.has(s.junk)) {
    kind = "junk";
    kindConfidence = TAGGED_CONFIDENCE;
  } else if (TAGGED_KINDS.has(s.kind) && (s.titleTag || s.kindCue)) {
    kind = s.kind as Reading["kind"];
    kindConfidence = TAGGED_CONFIDENCE;
  }
  return {
    kind,
    kindConfidence: Math.round(kindConfidence * 100) / 100,
    ...(kind === "bug" && s.severity ? { severity: s.severity } : {}),
    ask: findAsk(task, description, read.md),
    evidence: readEvidence(task, description, read.md),
    language: read.language,
    ...(PULL_REQUEST_RE.test(read.md.text) ? { pullRequest: true } : {}),
    // Stated only where something learned was applied: a kind adjustment fitted against another release's
    // model is not (see adjustmentFor).
    calibration:
      calibrationUsed(calibration) && (adjustmentFor(model, calibration.kind) || calibration.acceptance)
        ? { repository: calibration.repository, closedIssues: calibration.closedIssues }
        : null,
  };
}
