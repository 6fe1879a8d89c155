/**
 * The App's side of learning from a repository's own history (issue 18): what the backfill runs when it is
 * asked to learn (install, `/score learn`, the admin CLI, weekly). The `/score learn` reply is in commands/learn.ts.
 */
import type { Logger } from "pino";
import type { ListedIssue } from "../backlog/paced-github.js";
import type { CalibrationStore } from "../learning/calibration-store.js";
import { learnCalibrationSliced } from "../learning/fit-calibration.js";
import { labelNames } from "../learning/label-kinds.js";

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
