import type { SizeBand } from "../core/change/size-bands.js";
import type { Output, RepoConfig } from "./repo-config.schema.js";

/** What one scored issue or pull request writes on GitHub, from `output`, `comment` and `labels`. */
export interface ResolvedOutputs {
  comment: boolean;
  /** The verdict labels (`labels.approved` / `labels.rejected`), when named. */
  approvalLabels: { approved?: string | undefined; rejected?: string | undefined } | undefined;
  /** The `needs-human` label's name, when it is written. */
  needsHumanLabel: string | undefined;
  /** Whether the kind label is written (names from `kind-labels`). */
  kindLabels: boolean;
  /** The Projects v2 board, when the issue is added to one. */
  project: string | undefined;
  /** A check run on pull requests. */
  check: boolean;
  /** A pull request's size label, by band (`size-labels`), when it is written. */
  sizeLabels?: Readonly<Record<SizeBand, string>> | undefined;
  /**
   * The label put on an issue whose comment says "Possibly the same as" (`duplicate-label`), when it is written.
   * Only ever added (never taken off: once on, it is the people's to remove).
   */
  duplicateLabel?: string | undefined;
}

export const DEFAULT_NEEDS_HUMAN_LABEL = "needs-human";

/**
 * How `output` and the older keys combine. `output` unset: the comment unless `comment: false`, and the labels
 * named under `labels` (as before `output` existed). `output` set: only what it lists; `comment: false` still
 * means no comment; `labels` in the list writes the kind label, the `needs-human` label (named by
 * `labels.needs-human`, default needs-human) and the verdict labels when `labels` names them.
 */
export function resolveOutputs(config: RepoConfig): ResolvedOutputs {
  const named = config.labels;
  // Its own opt-in, whatever `output` lists (a pull request's size is not one of the report's outputs).
  const sizeLabels = config["size-labels"] || undefined;
  // Its own opt-in too: what the comment's similar-issues line says, not one of the report's outputs.
  const duplicateLabel = config["duplicate-label"] || undefined;
  const approval =
    named.approved || named.rejected
      ? { approved: named.approved ?? undefined, rejected: named.rejected ?? undefined }
      : undefined;
  if (config.output === undefined)
    return {
      comment: config.comment,
      approvalLabels: approval,
      needsHumanLabel: named["needs-human"] ?? undefined,
      kindLabels: false,
      project: undefined,
      check: false,
      sizeLabels,
      duplicateLabel,
    };
  const has = (o: Output) => config.output!.includes(o);
  const labels = has("labels");
  return {
    comment: has("comment") && config.comment,
    approvalLabels: labels ? approval : undefined,
    // An explicit null under `labels` turns the needs-human label off even here.
    needsHumanLabel: labels
      ? named["needs-human"] === null
        ? undefined
        : (named["needs-human"] ?? DEFAULT_NEEDS_HUMAN_LABEL)
      : undefined,
    kindLabels: labels,
    project: has("project") ? (config.project ?? undefined) : undefined,
    check: has("check"),
    sizeLabels,
    duplicateLabel,
  };
}

/** Writes nothing: the base for a job that writes one output only (new commits: the check run). */
export const NO_OUTPUTS: ResolvedOutputs = {
  comment: false,
  approvalLabels: undefined,
  needsHumanLabel: undefined,
  kindLabels: false,
  project: undefined,
  check: false,
};
