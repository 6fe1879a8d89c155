/** `/score backlog`: queue the repository's backfill and say where its board is. */
import type { Context } from "probot";
import { escapeMarkdown } from "../../core/render-comment.js";
import { installationOf, repositoryName } from "../event.js";
import type { AppBacklog, Subject } from "../types.js";

/** Said when the server runs without a database (the backlog and learning need one). */
export const NEEDS_STORAGE =
  "its operator can set `DATA_DIR` (the embedded database) or `DATABASE_URL` (PostgreSQL) and restart.";

export async function askBackfill(
  context: Context,
  backlog: AppBacklog | undefined,
  subject: Subject,
): Promise<string[]> {
  const name = repositoryName(context);
  if (!backlog)
    return [`The backlog needs storage, and this task-scorer server runs without it: ${NEEDS_STORAGE}`];
  const state = await backlog.store.requestBackfill(name, installationOf(context));
  backlog.runner.wake();
  context.log.info({ subject: subject.ref, state }, "backfill asked for by /score backlog");
  return [
    state === "running"
      ? `The backfill of ${escapeMarkdown(name)}'s open issues is already running.`
      : `The backfill of ${escapeMarkdown(name)}'s open issues is queued.`,
    "Each open issue is scored silently: no comment on old issues; new issues keep getting their report.",
    "",
    `The ranked backlog: ${backlog.boardUrl(name)}`,
  ];
}
