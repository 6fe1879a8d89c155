import type { Probot } from "probot";
import type { DeliveryHandler } from "../fleet/delivery-queues.js";
import type { JobQueue } from "./job-queue.js";

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
    await probot.receive({
      id: attempt > 1 ? `${d.guid}#${attempt}` : d.guid,
      name: d.event,
      payload: d.payload,
    } as Parameters<Probot["receive"]>[0]);
    const subject = subjectOfPayload(d.payload);
    const failure = subject ? await queue.idleFor(subject) : undefined;
    if (failure) throw new Error(failure);
  };
}
