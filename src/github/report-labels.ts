import { needsHuman } from "../core/needs-human.js";
import type { ScoreReport } from "../core/score-report.schema.js";
import { applyApprovalLabels, applyFlagLabel, ensureLabel } from "./approval-labels.js";
import type { LabelsOctokit } from "./github-request.js";
import type { GitHubRequest } from "./github-request.js";
import { applyKindLabel, type ReadingKind } from "./kind-labels.js";
import { applySizeLabel, type SizeLabelNames } from "./size-labels.js";
import type { IssueRef } from "./report-comment.js";

/** Which of a report's labels to write (the App's and the Action's resolved outputs). */
export interface ReportLabelOutputs {
  approvalLabels: { approved?: string | undefined; rejected?: string | undefined } | undefined;
  needsHumanLabel: string | undefined;
  kindLabels: boolean;
  /** A pull request's size label (`size-labels`), written where the report read its change. */
  sizeLabels?: SizeLabelNames | undefined;
  /**
   * The possible-duplicate label (`duplicate-label`), given only where the comment says "Possibly the same as"
   * (publish-report.ts). Only ever added.
   */
  duplicateLabel?: string | undefined;
}

export interface ReportLabelsWritten {
  added: string[];
  removed: string[];
}

/**
 * The labels a report writes, the same for the App and the Action: the verdict's label, `needs-human` while the
 * report needs a person, the kind's label (names from `kindNames`), a pull request's size label, and an issue's
 * possible-duplicate label (added, never removed). `current` is the issue's labels now.
 * GitHub's errors are thrown: each adapter says in its own way what it could not write.
 */
export async function writeReportLabels(
  labels: LabelsOctokit,
  ref: IssueRef,
  outputs: ReportLabelOutputs,
  report: ScoreReport,
  current: readonly string[],
  kindNames: () => Promise<ReadonlyMap<ReadingKind, string>> | ReadonlyMap<ReadingKind, string>,
): Promise<ReportLabelsWritten> {
  const written: ReportLabelsWritten = { added: [], removed: [] };
  if (outputs.approvalLabels) {
    const r = await applyApprovalLabels(
      labels,
      ref,
      outputs.approvalLabels,
      report.consensus.approved,
      current,
    );
    written.added.push(...r.added);
    written.removed.push(...r.removed);
  }
  if (outputs.needsHumanLabel) {
    const r = await applyFlagLabel(labels, ref, outputs.needsHumanLabel, needsHuman(report), current);
    if (r === "added") written.added.push(outputs.needsHumanLabel);
    if (r === "removed") written.removed.push(outputs.needsHumanLabel);
  }
  if (outputs.kindLabels) {
    const r = await applyKindLabel(labels, ref, await kindNames(), report, current);
    if (r.action === "added") written.added.push(r.label);
  }
  const size = report.reading.change?.size;
  if (outputs.sizeLabels && size) {
    const r = await applySizeLabel(labels, ref, outputs.sizeLabels, size, current);
    written.added.push(...r.added);
    written.removed.push(...r.removed);
  }
  const duplicate = outputs.duplicateLabel;
  if (duplicate && !current.includes(duplicate)) {
    await ensureLabel(labels, ref, duplicate, DUPLICATE_COLOR, DUPLICATE_DESCRIPTION);
    await labels.rest.issues.addLabels({ ...ref, labels: [duplicate] });
    written.added.push(duplicate);
  }
  return written;
}

/** GitHub's own colour for its default `duplicate` label. */
const DUPLICATE_COLOR = "cfd3d7";
const DUPLICATE_DESCRIPTION =
  "task-scorer: possibly the same as an earlier issue (named in the report comment)";

/** A pull request's head commit, from the event when it carries one, else from GitHub. */
export async function pullRequestHeadSha(
  github: GitHubRequest,
  ref: IssueRef,
  fromEvent?: string | undefined,
): Promise<string> {
  if (fromEvent) return fromEvent;
  const { data } = await github.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
    owner: ref.owner,
    repo: ref.repo,
    pull_number: ref.issue_number,
  });
  const sha = (data as { head?: { sha?: string } }).head?.sha;
  if (!sha) throw new Error("the pull request has no head commit");
  return sha;
}
