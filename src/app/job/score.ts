/**
 * Step 5, score: the subject's text, clipped to the API's limits, scored by the core under the repository's
 * approval thresholds and what was learned from its closed issues, with a pull request's change beside it. The job and the backfill both score here.
 */
import type { ApprovalPolicy } from "../../core/approval.js";
import type { LinkedReports } from "../../core/change/linked-issues.js";
import type { ChangeSource } from "../../core/change/pull-change.js";
import { scoreTask, type ScoreOutcome } from "../../core/score-task.js";
import type { Scorer } from "../../core/scorer.js";
import { DESCRIPTION_MAX_CHARS, ScoreRequestSchema, TASK_MAX_CHARS } from "../../core/task-request.schema.js";
import type { CalibrationStore } from "../../learning/calibration-store.js";
import { repoApprovalPolicy, type RepoConfig } from "../../repo-config/repo-config.schema.js";
import { clip } from "../task-text.js";

export interface ScoreStepDeps {
  scorer: Scorer;
  /** The service's thresholds; a repository's file may set its own. */
  policy: ApprovalPolicy;
  clock?: (() => Date) | undefined;
  calibrations?: Pick<CalibrationStore, "get"> | undefined;
}

export async function scoreText(
  deps: ScoreStepDeps,
  /** The repository's file; without one (not read), the service's thresholds. */
  config: RepoConfig | undefined,
  repository: string,
  text: { title: string; body: string },
  limits: { signal?: AbortSignal; timeoutMs: number },
  /** A pull request's change as listed from GitHub (read-change.ts); read beside the text, not scored. */
  change?: ChangeSource,
  /** The reports of the issues it closes, from the backlog (linked-reports.ts): named in the change's reading. */
  linked?: LinkedReports,
): Promise<ScoreOutcome> {
  const input = ScoreRequestSchema.parse({
    task: clip(text.title, TASK_MAX_CHARS),
    description: clip(text.body, DESCRIPTION_MAX_CHARS),
  });
  return scoreTask(
    input,
    {
      scorer: deps.scorer,
      policy: config ? repoApprovalPolicy(config, deps.policy) : deps.policy,
      calibration: await deps.calibrations?.get(repository),
      change,
      linked,
      ...(deps.clock ? { clock: deps.clock } : {}),
    },
    limits,
  );
}
