import { UsageError } from "../core/errors.js";
import { BacklogStore } from "../backlog/backlog-store.js";
import type { Db } from "../storage/tables.js";

/**
 * `backlog OWNER/REPO` and `learn OWNER/REPO`: queue a silent backfill (or learning, then a backfill) of a
 * repository for the running App to pick up. The backlog's own commands, beside the accounts' in admin-commands.ts.
 */
export async function queueBacklog(
  group: "backlog" | "learn",
  action: string | undefined,
  db: Db,
  out: (line: string) => void,
): Promise<void> {
  const learn = group === "learn";
  if (!action || !/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/.test(action))
    throw new UsageError(`${group} needs OWNER/REPO, e.g. ${group} octo-org/widgets.`);
  const backlog = new BacklogStore(db);
  const state = await backlog.requestBackfill(action, {}, { learn });
  if (learn) {
    out(
      state === "running"
        ? `Learning from ${action}'s closed issues is queued after the backfill that is running.`
        : `Queued learning from ${action}'s closed issues: a running task-scorer with the GitHub App reads them, keeps what beats the shipped model, and scores the open issues again.`,
    );
    return;
  }
  const row = await backlog.repository(action);
  out(
    state === "running"
      ? `The backfill of ${action} is already running (${row?.done ?? 0} of ${row?.total ?? 0} issues).`
      : `Queued the backfill of ${action}: a running task-scorer with the GitHub App scores its open issues silently.`,
  );
}
