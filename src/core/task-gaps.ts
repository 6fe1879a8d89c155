/**
 * What a task's text leaves out that a reviewer would need: the basis of the one line in the report
 * comment that says what would raise the score. It is what the offline judge found missing (its
 * structural reading: kind of task, steps, traces, acceptance criteria, numbers about the people
 * affected), so the advice and the judge's reasoning never disagree. Never about who wrote the task.
 */
import { findGaps, readTask, type TaskGap } from "./offline/read-task.js";

export type { TaskGap };

export function findTaskGaps(task: string, description: string): TaskGap[] {
  const reading = readTask(task, description);
  return findGaps(reading.structure, reading.analysis.hasStackTrace);
}
