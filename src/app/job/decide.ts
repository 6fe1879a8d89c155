/**
 * Step 3, decide (pure): whether this job scores under the repository's config (skip rules, trigger mode), and
 * what it writes. New commits on a pull request move only its check run: the text, and so the report, are the
 * ones already published (and already counted), so nothing else is written or charged.
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
  /** Only new commits: the check run moves, nothing else is written or charged. */
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
    outputs: pushOnly ? { ...NO_OUTPUTS, check: resolved.check } : resolved,
  };
}
