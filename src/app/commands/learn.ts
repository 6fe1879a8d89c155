/** `/score learn`: learn from the repository's closed issues (issue 18), then re-score its backlog. */
import type { Context } from "probot";
import { escapeMarkdown } from "../../core/render-comment.js";
import { installationOf, repositoryName } from "../event.js";
import type { AppBacklog, Subject } from "../types.js";
import { NEEDS_STORAGE } from "./backlog.js";

export async function askLearning(
  context: Context,
  backlog: AppBacklog | undefined,
  subject: Subject,
): Promise<string[]> {
  const name = repositoryName(context);
  if (!backlog)
    return [
      `Learning from this repository's closed issues needs storage, and this task-scorer server runs without it: ${NEEDS_STORAGE}`,
    ];
  const state = await backlog.store.requestBackfill(name, installationOf(context), { learn: true });
  backlog.runner.wake();
  context.log.info({ subject: subject.ref, state }, "learning asked for by /score learn");
  return [
    state === "running"
      ? `Learning from ${escapeMarkdown(name)}'s closed issues is queued after the backfill that is running.`
      : `Learning from ${escapeMarkdown(name)}'s closed issues is queued.`,
    "It reads at most the last 1,000 closed issues, with the labels maintainers chose and whether each was completed or not planned, and keeps what it learns only where that beats the shipped model on this repository's own held-out closed issues. Then every open issue is scored again, silently.",
    "",
    `The ranked backlog: ${backlog.boardUrl(name)}`,
  ];
}
