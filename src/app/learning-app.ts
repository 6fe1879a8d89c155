/**
 * The App's side of learning from a repository's own history (issue 18): what the backfill runs when it is
 * asked to learn (install, `/score learn`, the admin CLI, weekly), and the `/score learn` reply.
 */
import type { Context } from "probot";
import type { Logger } from "pino";
import { escapeMarkdown } from "../core/render-comment.js";
import type { ListedIssue } from "../backlog/paced-github.js";
import type { CalibrationStore } from "../learning/calibration-store.js";
import { learnCalibrationSliced } from "../learning/fit-calibration.js";
import { labelNames } from "../learning/label-kinds.js";
import { repositoryName } from "./backlog-app.js";
import type { Subject } from "./skip-rules.js";
import type { AppDeps } from "./task-scorer-app.js";

/** Re-learn each repository weekly. */
export const RELEARN_MS = 7 * 24 * 3_600_000;

/** The backfill's `learn`: fit on the closed issues it listed and store the result for the fleet. */
export function learnFromClosedIssues(calibrations: CalibrationStore, log: Logger) {
  return async (repository: string, closed: ListedIssue[]): Promise<{ changed: boolean }> => {
    const started = process.hrtime.bigint();
    // In slices, with turns of the event loop between them: the server answers while it learns (issue 33).
    const result = await learnCalibrationSliced(
      repository,
      closed.map((i) => ({
        number: i.number,
        title: i.title,
        body: i.body ?? "",
        labels: labelNames(i.labels),
        stateReason: i.state_reason ?? null,
      })),
    );
    const { version, changed } = await calibrations.save(repository, result);
    log.info(
      {
        repository,
        version,
        changed,
        closedIssues: result.calibration.closedIssues,
        labelled: result.labelled,
        decided: result.decided,
        kind: result.kind,
        acceptance: result.acceptance,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      "learning: learned from the repository's closed issues",
    );
    return { changed };
  };
}

/** `/score learn`: learn from the repository's closed issues, then re-score its backlog. */
export async function askLearning(context: Context, deps: AppDeps, subject: Subject): Promise<string[]> {
  const name = repositoryName(context);
  if (!deps.backlog)
    return [
      "Learning from this repository's closed issues needs storage, and this task-scorer server runs without it: its operator can set `DATA_DIR` (the embedded database) or `DATABASE_URL` (PostgreSQL) and restart.",
    ];
  const installationId = (context.payload as { installation?: { id?: number } }).installation?.id;
  const repository = (context.payload as { repository?: { private?: boolean } }).repository;
  const state = await deps.backlog.store.requestBackfill(
    name,
    { installationId, private: repository?.private },
    { learn: true },
  );
  deps.backlog.runner.wake();
  context.log.info({ subject: subject.ref, state }, "learning asked for by /score learn");
  return [
    state === "running"
      ? `Learning from ${escapeMarkdown(name)}'s closed issues is queued after the backfill that is running.`
      : `Learning from ${escapeMarkdown(name)}'s closed issues is queued.`,
    "It reads at most the last 1,000 closed issues, with the labels maintainers chose and whether each was completed or not planned, and keeps what it learns only where that beats the shipped model on this repository's own held-out closed issues. Then every open issue is scored again, silently.",
    "",
    `The ranked backlog: ${deps.backlog.boardUrl(name)}`,
  ];
}
