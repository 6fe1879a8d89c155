/**
 * One reading of a task, for everything that judges or explains it: the judge's features, the personas'
 * leanings and reasoning, the comment's advice (findGaps) and the report's `reading` all come from the
 * TaskReading made here, once per task.
 */
import type { Reading } from "../reading.schema.js";
import { analyzeTask, conceptsIn, type ConceptHit, type TaskAnalysis } from "./analyze-task.js";
import { calibrationUsed, type RepositoryCalibration } from "./calibration.js";
import { featureVector } from "./judge-model.js";
import { HTML_COMMENT_RE, MD_LINK_RE } from "./prose.js";
import { readReading, readStructures } from "./read-reading.js";
import type { TaskStructure } from "./read-structure.js";
import { rememberReading } from "./reading-memo.js";
import { readable } from "./unreadable-text.js";

/** Themes that are the subject of a task; the others (defects, debt, claims) are read from structure. */
const THEMES = new Set([
  "payments",
  "pricing",
  "donation",
  "currency",
  "visible-ui",
  "dark-mode",
  "usability",
  "notifications",
  "growth-marketing",
  "analytics",
  "integration",
  "enterprise",
  "ai-feature",
  "testing",
  "performance",
  "security",
  "localization",
  "collaboration",
  "data-portability",
  "backend",
]);

/** The author's first sentence, outside code, quotes, links and template prompts (at most 200 characters). */
function firstSentence(description: string): string {
  const text = description
    .replace(HTML_COMMENT_RE, " ")
    .replace(/```[\s\S]*?(?:```|$)/g, " ")
    .replace(/^[ \t]*(?:>|#).*$/gm, " ")
    .replace(MD_LINK_RE, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .trim();
  const m = /^[\s\S]{0,200}?[.!?](?:\s|$)/.exec(text);
  return (m ? m[0] : text.slice(0, 200)).trim();
}

/** Everything the judge reads from one task. */
export interface TaskReading {
  /** The title and description as read (noise such as random bytes read as nothing). */
  task: string;
  description: string;
  analysis: TaskAnalysis;
  structure: TaskStructure;
  /** Themes named in the title (the subject); the description's words earn no theme credit. */
  themes: ConceptHit[];
  /** Themes named in the author's opening sentence and not in the title: the subject, said again. */
  openingThemes: ConceptHit[];
  /** The reader's findings (the report's `reading`): kind from the trained model, evidence with quotes. */
  reading: Reading;
  features: number[];
}

export function readTask(
  original: string,
  originalDescription: string,
  calibration?: RepositoryCalibration,
): TaskReading {
  // Noise (random bytes, a bare blob) is read as nothing, so it scores like an empty task.
  const task = readable(original);
  const description = readable(originalDescription);
  const analysis = analyzeTask(task, description);
  const read = readStructures(task, description, analysis);
  const structure = read.structure;
  // Parenthesised asides in the title are not its subject; keyword runs are not themes.
  const titleOnly = analysis.stuffing ? [] : conceptsIn(task.replace(/\([^)]{0,80}\)/g, " "));
  const themes = titleOnly.filter((h) => THEMES.has(h.concept.id));
  // The opening sentence says what the task is about as often as the title does; later sentences are
  // context, tangents or stuffing, and earn nothing.
  const opening = firstSentence(description);
  const seen = new Set(themes.map((h) => h.concept.id));
  const openingThemes =
    analysis.stuffing || !opening
      ? []
      : conceptsIn(opening).filter((h) => THEMES.has(h.concept.id) && !seen.has(h.concept.id));
  const reading = readReading(task, description, read, undefined, calibration);
  // The memo is keyed by text alone: only a reading that no repository's calibration changed is kept.
  if (!calibrationUsed(calibration)) rememberReading(original, originalDescription, reading);
  return {
    task,
    description,
    analysis,
    structure,
    themes,
    openingThemes,
    reading,
    features: featureVector(structure, analysis),
  };
}

/** What the task would need to score higher, from what the judge found missing. */
export type TaskGap = "description" | "steps_to_reproduce" | "acceptance_criteria" | "evidence_of_demand";

export function findGaps(s: TaskStructure, hasTrace: boolean): TaskGap[] {
  if (s.kind === "junk" || s.kind === "ping" || s.kind === "question") return [];
  const gaps: TaskGap[] = [];
  if (s.ownWords < 12) gaps.push("description");
  if (s.kind === "bug" && !s.steps && !hasTrace) gaps.push("steps_to_reproduce");
  if ((s.kind === "feature" || s.kind === "refactor") && !s.acceptance) gaps.push("acceptance_criteria");
  if (s.kind === "feature" && !s.demand) gaps.push("evidence_of_demand");
  return gaps;
}
