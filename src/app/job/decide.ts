/**
 * Step 3, decide (pure): whether this job scores under the repository's config (skip rules, trigger mode), and
 * what it writes. New commits on a pull request change its change, not its text: the report comment (its Change
 * line), the check run and the size label follow them, with the text's verdicts kept (last-verdicts.ts); the labels and the board,
 * which follow the text's score, are not written again, and nothing is charged (the task was counted once).
 */
import type { RepoConfig } from "../../repo-config/repo-config.schema.js";
import { NO_OUTPUTS, resolveOutputs, type ResolvedOutputs } from "../../repo-config/resolve-outputs.js";
import { skipReason } from "../skip-rules.js";
import type { Subject, Trigger } from "../types.js";

export interface Decision {
  /** True when at least one reason scores the subject. */
  score: boolean;
  /** Per reason, why it does not score (undefined where it does), for the log. */
  why: (string | undefined)[];
  /** Only new commits: the comment, the check run and the size label follow the change; nothing else is charged. */
  pushOnly: boolean;
  outputs: ResolvedOutputs;
}

export function decide(config: RepoConfig, reasons: readonly Trigger[], subject: Subject): Decision {
  const pushOnly = reasons.length > 0 && reasons.every((t) => t.kind === "head-pushed");
  const resolved = resolveOutputs(config);
  const why = reasons.map((t) => skipReason(config, t, subject));
  return {
    score: why.some((r) => r === undefined),
    why,
    pushOnly,
    outputs: pushOnly
      ? { ...NO_OUTPUTS, comment: resolved.comment, check: resolved.check, sizeLabels: resolved.sizeLabels }
      : resolved,
  };
}
