/**
 * The size label of a pull request (`size-labels` in .github/task-scorer.yml): exactly one of the configured names
 * (DEFAULT_SIZE_LABELS in repo-config: size/XS … size/XL), the one of its change's size band. New commits move it: the band's label is put on
 * and every other configured size name taken off. Only those five names are touched; labels people set are left.
 */
import { SIZE_BANDS, type SizeBand } from "../core/change/size-bands.js";
import { ensureLabel } from "./approval-labels.js";
import { httpStatus, type LabelsOctokit } from "./github-request.js";
import type { IssueRef } from "./report-comment.js";

export type SizeLabelNames = Readonly<Record<SizeBand, string>>;

/** Light to dark with size, so a list of pull requests reads at a glance. */
const SIZE_COLORS: Record<SizeBand, string> = {
  XS: "c2e0c6",
  S: "bfdadc",
  M: "fef2c0",
  L: "f9d0c4",
  XL: "e99695",
};

export async function applySizeLabel(
  octokit: LabelsOctokit,
  ref: IssueRef,
  names: SizeLabelNames,
  band: SizeBand,
  current: readonly string[],
): Promise<{ added: string[]; removed: string[] }> {
  const want = names[band];
  const added: string[] = [];
  const removed: string[] = [];
  if (!current.includes(want)) {
    await ensureLabel(
      octokit,
      ref,
      want,
      SIZE_COLORS[band],
      `task-scorer: size ${band}, by lines changed outside generated files`,
    );
    await octokit.rest.issues.addLabels({ ...ref, labels: [want] });
    added.push(want);
  }
  for (const other of SIZE_BANDS) {
    const name = names[other];
    if (name === want || !current.includes(name)) continue;
    try {
      await octokit.rest.issues.removeLabel({ ...ref, name });
      removed.push(name);
    } catch (error) {
      // Gone already (someone took it off meanwhile): what was wanted.
      if (httpStatus(error) !== 404) throw error;
    }
  }
  return { added, removed };
}
