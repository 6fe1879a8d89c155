import type { Probot } from "probot";
import { REPORT_MARKER } from "../core/render-comment.js";
import { RetryLaterError, type DeliveryHandler, type GiveUp } from "../fleet/delivery-intake.js";
import { upsertReportComment, type IssueCommentsOctokit } from "../github/report-comment.js";
import { QueueFullError, type JobQueue } from "./job-queue.js";

/** The job queue's name for one issue or pull request: "owner/repo#number". */
export const subjectKey = (ref: { owner: string; repo: string; issue_number: number }) =>
  `${ref.owner}/${ref.repo}#${ref.issue_number}`;

/** The issue or pull request a delivery is about, by the same name; undefined for other events. */
export function subjectOfPayload(payload: unknown): string | undefined {
  const p = payload as {
    repository?: { full_name?: string };
    issue?: { number?: number };
    pull_request?: { number?: number };
  };
  const number = p.issue?.number ?? p.pull_request?.number;
  return p.repository?.full_name && number !== undefined ? `${p.repository.full_name}#${number}` : undefined;
}

/**
 * A stored delivery, handled by the App: Probot's handlers enqueue the work, and the delivery is finished
 * only when that work is. A failed job fails the delivery (the fleet's queue retries it with backoff; the
 * App's writes are idempotent).
 */
export function deliveryHandler(probot: Probot, queue: JobQueue): DeliveryHandler {
  return async (d, attempt) => {
    // A retry gets its own id: the in-process queue accepts a delivery id once.
    try {
      await probot.receive({
        id: attempt > 1 ? `${d.guid}#${attempt}` : d.guid,
        name: d.event,
        payload: d.payload,
      } as Parameters<Probot["receive"]>[0]);
    } catch (error) {
      const errors = error instanceof AggregateError ? error.errors : [error];
      const full = errors.find((e): e is QueueFullError => e instanceof QueueFullError);
      // Stored already: nothing is lost by waiting for room, and the attempt is not counted.
      if (full) throw new RetryLaterError(full.message);
      throw error;
    }
    const subject = subjectOfPayload(d.payload);
    const failure = subject ? await queue.idleFor(subject) : undefined;
    if (failure) throw new Error(failure);
  };
}

/**
 * A delivery given up after its attempts (each stopped the process): one note on its issue or pull
 * request, in the report comment's place, so the maintainers see it once instead of a silent gap.
 */
export function deliveryGiveUp(probot: Probot): GiveUp {
  return async (d, attempts) => {
    const p = d.payload as {
      installation?: { id?: number };
      repository?: { name?: string; owner?: { login?: string } };
      issue?: { number?: number };
      pull_request?: { number?: number };
    };
    const number = p.issue?.number ?? p.pull_request?.number;
    const owner = p.repository?.owner?.login;
    const repo = p.repository?.name;
    if (!p.installation?.id || number === undefined || !owner || !repo) return;
    const octokit = (await probot.auth(p.installation.id)) as unknown as IssueCommentsOctokit;
    const body = [
      REPORT_MARKER,
      "### Task score: not available",
      "",
      `> ⚠️ task-scorer stopped ${attempts} times while handling this ${p.pull_request ? "pull request" : "issue"} and has given it up. ` +
        `Check \`.github/task-scorer.yml\` (at most 64 KB, 20 title patterns); comment \`/score\` to try again.`,
      "",
    ].join("\n");
    await upsertReportComment(octokit, { owner, repo, issue_number: number }, body);
  };
}
