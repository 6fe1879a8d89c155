/**
 * Step 6, persist: the report kept in the backlog (every open issue's latest report), by the job and by the
 * backfill alike, with the hash of the text it scored (an unchanged issue is not scored again).
 */
import type { BacklogStore } from "../../backlog/backlog-store.js";
import { taskRecord, type IssueFacts } from "../../backlog/task-record.js";
import type { ScoreReport } from "../../core/score-report.schema.js";

export async function saveToBacklog(
  store: BacklogStore,
  repository: string,
  issue: IssueFacts,
  report: ScoreReport,
  contentHash: string,
): Promise<void> {
  await store.saveTask(taskRecord(repository, issue, report, contentHash));
}
