/**
 * What a task's text leaves out that a reviewer would need: the basis of the one line in the report
 * comment that says what would raise the score. It is what the one reading of the task did not find, for
 * its kind (read-task.ts's findGaps), so the advice, the reading and the judge's reasoning never disagree.
 * Never about who wrote the task.
 */
import { findGaps, readTask, type TaskGap } from "./offline/read-task.js";

export type { TaskGap };

export function findTaskGaps(task: string, description: string): TaskGap[] {
  return findGaps(readTask(task, description));
}
