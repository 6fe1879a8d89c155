/**
 * The kind label (`output: [labels]`): the reader's kind written as the repository's own label, only when the
 * reader is sure enough (KIND_LABEL_CONFIDENCE). Shared by the App, its backfill and the Action.
 */
import { READING_KINDS } from "../core/reading.schema.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import { ensureLabel } from "./approval-labels.js";
import type { LabelsOctokit } from "./github-request.js";
import type { IssueRef } from "./report-comment.js";

export type ReadingKind = (typeof READING_KINDS)[number];

/**
 * How sure the reader must be of each kind before its label is written, measured by
 * `scripts/kind-label-bar.ts` on the labelled corpus (300 issues the model never saw) and on the NLBSE'24
 * training split cross-validated by repository: the lowest threshold where the kind's precision is at least
 * 0.75 on both (Issue Label Bot chose 0.7; the margin is for the small samples). With the kind model refitted
 * on 2026-11-26: bug 0.6: precision 0.89 and 0.77, recall 0.59 and 0.31; feature 0.65: 0.87 and 0.78, recall
 * 0.79 and 0.52; question 0.85: 0.75 and 0.85, recall 0.33 and 0.17 (the corpus holds 9 questions: at 0.85 it
 * labels 4 of its issues, 3 of them right). The other kinds come from the author's own tag (0.9) and are
 * labelled only when `kind-labels` names them.
 */
export const KIND_LABEL_CONFIDENCE: Record<ReadingKind, number> = {
  bug: 0.6,
  feature: 0.65,
  question: 0.85,
  docs: 0.8,
  refactor: 0.8,
  chore: 0.8,
  junk: 0.8,
};

/** GitHub's default labels for the three kinds the reader's model tells apart; other kinds need `kind-labels`. */
export const DEFAULT_KIND_LABELS: Partial<Record<ReadingKind, string>> = {
  bug: "bug",
  feature: "enhancement",
  question: "question",
};

/** Names per kind: a string is the label, null means "never label this kind". */
export type KindLabelNames = Partial<Record<ReadingKind, string | null>>;

/**
 * A repository's own label names per kind, once something has learned them (the learning feature may pass
 * one in). Consulted after the repository's file and before GitHub's defaults.
 */
export type LearnedLabelNames = (
  repository: string,
) => Promise<KindLabelNames | undefined> | KindLabelNames | undefined;

/** The label names in force: the file's `kind-labels`, then learned names, then GitHub's defaults. */
export function kindLabelNames(
  configured: KindLabelNames,
  learned?: KindLabelNames,
): Map<ReadingKind, string> {
  const names = new Map<ReadingKind, string>();
  for (const kind of READING_KINDS) {
    const name = kind in configured ? configured[kind] : (learned?.[kind] ?? DEFAULT_KIND_LABELS[kind]);
    if (name) names.set(kind, name);
  }
  return names;
}

export type KindLabelResult =
  | { action: "added"; label: string }
  | { action: "unchanged"; label?: string; reason: "already-labelled" | "unsure" | "unmapped" };

const KIND_COLOR = "c5def5";

/**
 * Add the label for the report's kind when the reader is at least as sure as the kind's bar, the kind has a
 * name, and the issue carries none of the kind labels yet (a person's or an earlier label wins). Never removes
 * a label: people set kind labels too.
 */
export async function applyKindLabel(
  octokit: LabelsOctokit,
  ref: IssueRef,
  names: ReadonlyMap<ReadingKind, string>,
  report: Pick<ScoreReport, "reading">,
  current: readonly string[],
): Promise<KindLabelResult> {
  const { kind, kindConfidence } = report.reading;
  const name = names.get(kind);
  if (!name) return { action: "unchanged", reason: "unmapped" };
  if (kindConfidence < KIND_LABEL_CONFIDENCE[kind])
    return { action: "unchanged", label: name, reason: "unsure" };
  const lower = new Set(current.map((l) => l.toLowerCase()));
  if ([...names.values()].some((n) => lower.has(n.toLowerCase())))
    return { action: "unchanged", label: name, reason: "already-labelled" };
  await ensureLabel(octokit, ref, name, KIND_COLOR, `task-scorer: read as ${kind}`);
  await octokit.rest.issues.addLabels({ ...ref, labels: [name] });
  return { action: "added", label: name };
}
