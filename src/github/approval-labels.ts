import type { IssueRef } from "./report-comment.js";
import { httpStatus, type LabelsOctokit } from "./github-request.js";

export interface ApprovalLabels {
  approved?: string | undefined;
  rejected?: string | undefined;
}

const COLORS = { approved: "0e8a16", rejected: "d93f0b", needsHuman: "fbca04" };
const DESCRIPTIONS: Record<keyof typeof COLORS, string> = {
  approved: "task-scorer: the personas approve this task",
  rejected: "task-scorer: the personas do not approve this task",
  needsHuman: "task-scorer: the personas disagree, or the kind is unclear: a person should decide",
};

async function ensureVerdictLabel(
  octokit: LabelsOctokit,
  ref: IssueRef,
  name: string,
  kind: keyof typeof COLORS,
) {
  await ensureLabel(octokit, ref, name, COLORS[kind], DESCRIPTIONS[kind]);
}

/** Make sure the repository has the label (created with this colour and description when it lacks it). */
export async function ensureLabel(
  octokit: LabelsOctokit,
  ref: IssueRef,
  name: string,
  color: string,
  description: string,
) {
  try {
    await octokit.rest.issues.getLabel({ owner: ref.owner, repo: ref.repo, name });
  } catch (error) {
    if (httpStatus(error) !== 404) throw error;
    try {
      await octokit.rest.issues.createLabel({
        owner: ref.owner,
        repo: ref.repo,
        name,
        color,
        description,
      });
    } catch (createError) {
      // 422: someone created it in the meantime, which is what we wanted.
      if (httpStatus(createError) !== 422) throw createError;
    }
  }
}

/**
 * Put the label for the verdict on, take the other verdict's label off. Only the two configured
 * names are ever touched; labels people set are left alone.
 */
export async function applyApprovalLabels(
  octokit: LabelsOctokit,
  ref: IssueRef,
  labels: ApprovalLabels,
  approved: boolean,
  current: readonly string[],
): Promise<{ added: string[]; removed: string[] }> {
  const want = approved ? labels.approved : labels.rejected;
  const drop = approved ? labels.rejected : labels.approved;
  const added: string[] = [];
  const removed: string[] = [];
  if (want && !current.includes(want)) {
    await ensureVerdictLabel(octokit, ref, want, approved ? "approved" : "rejected");
    await octokit.rest.issues.addLabels({ ...ref, labels: [want] });
    added.push(want);
  }
  if (drop && drop !== want && current.includes(drop)) {
    try {
      await octokit.rest.issues.removeLabel({ ...ref, name: drop });
      removed.push(drop);
    } catch (error) {
      if (httpStatus(error) !== 404) throw error;
    }
  }
  return { added, removed };
}

/**
 * A label that follows one yes/no reading of the report (`needs-human`): on while it holds, off when it
 * no longer does. Only that one name is touched.
 */
export async function applyFlagLabel(
  octokit: LabelsOctokit,
  ref: IssueRef,
  name: string,
  on: boolean,
  current: readonly string[],
): Promise<"added" | "removed" | "unchanged"> {
  const has = current.includes(name);
  if (on && !has) {
    await ensureVerdictLabel(octokit, ref, name, "needsHuman");
    await octokit.rest.issues.addLabels({ ...ref, labels: [name] });
    return "added";
  }
  if (!on && has) {
    try {
      await octokit.rest.issues.removeLabel({ ...ref, name });
    } catch (error) {
      if (httpStatus(error) !== 404) throw error;
    }
    return "removed";
  }
  return "unchanged";
}
