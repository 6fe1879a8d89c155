/**
 * The Probot app's handlers: which events and comments start a job for which subject (see run-job.ts for what
 * the job does), and the events that keep the backlog and the accounts' plans current.
 */
import type { ApplicationFunction, Context, Probot } from "probot";
import { followEventRepository } from "./backlog-app.js";
import { commandIn } from "./commands/command.js";
import { subjectKey } from "./delivery-handler.js";
import { installationOf, repositoryName, subjectOf } from "./event.js";
import { QueueFullError, type Job } from "./job-queue.js";
import { runJob } from "./run-job.js";
import { hashText } from "./task-text.js";
import type { AppDeps, Subject, Trigger } from "./types.js";

/**
 * The Probot app. Handlers only decide whether an event is interesting and enqueue the work; the
 * webhook is acknowledged at once.
 */
export function taskScorerApp(deps: AppDeps): ApplicationFunction {
  return (app: Probot) => {
    const reasonsOf = new WeakMap<Job, Trigger[]>();
    const enqueue = (context: Context, trigger: Trigger, subject: Subject) => {
      const triggers: Trigger[] = [trigger];
      const job: Job = {
        subject: subjectKey(subject.ref),
        deliveryId: context.id,
        contentHash: hashText(subject.title, subject.body),
        // A person asked, or a label changed: the text may be the same, the answer may not. New commits:
        // the text is the same, but the change is not (and the new head commit has no check run yet).
        force:
          trigger.kind === "command" ||
          trigger.kind === "label-added" ||
          trigger.kind === "label-removed" ||
          trigger.kind === "head-pushed",
        installation: String(installationOf(context).installationId ?? ""),
        // A pending job for the same subject is replaced by this newer one: keep its reasons too, so a
        // `labeled` event right after `opened` does not drop the `opened`.
        absorb: (other) => triggers.unshift(...(reasonsOf.get(other) ?? [])),
        run: (signal) => runJob(context, deps, triggers, subject, signal),
      };
      reasonsOf.set(job, triggers);
      const result = deps.queue.enqueue(job);
      context.log.debug({ delivery: context.id, result }, "enqueued");
      // Refused, not dropped: the webhook answers 503 and GitHub keeps the delivery as failed.
      if (result === "full" || result === "full-installation")
        throw new QueueFullError(result === "full" ? "all" : "installation");
    };
    const fromBot = (context: Context) => context.payload.sender?.type === "Bot";
    // An edit that changed neither title nor body (labels, assignees...) has nothing new to score.
    const textUnchanged = (payload: { action: string; changes?: object }) =>
      payload.action === "edited" &&
      !(payload.changes && ("title" in payload.changes || "body" in payload.changes));
    const labelTrigger = (action: string, label: { name?: string } | undefined): Trigger | undefined =>
      label?.name
        ? action === "labeled"
          ? { kind: "label-added", label: label.name }
          : { kind: "label-removed", label: label.name }
        : undefined;

    // Every event's repository (visibility, name): its one statement goes out before any job of this event
    // stores a task, so a repository made private is hidden before anything new of it is stored.
    app.onAny(async (context) => {
      if (deps.backlog) await followEventRepository(context as Context, deps.backlog.store);
    });

    app.on(["issues.opened", "issues.reopened", "issues.edited"], async (context) => {
      const { payload } = context;
      if (fromBot(context) || textUnchanged(payload)) return;
      enqueue(context, { kind: "issues", action: payload.action }, subjectOf(context));
    });

    app.on(["issues.labeled", "issues.unlabeled"], async (context) => {
      const { payload } = context;
      const trigger = labelTrigger(payload.action, payload.label);
      if (fromBot(context) || !trigger) return;
      enqueue(context, trigger, subjectOf(context));
    });

    app.on(
      [
        "pull_request.opened",
        "pull_request.reopened",
        "pull_request.ready_for_review",
        "pull_request.edited",
      ],
      async (context) => {
        const { payload } = context;
        if (fromBot(context) || textUnchanged(payload)) return;
        enqueue(context, { kind: "pull-requests", action: payload.action }, subjectOf(context));
      },
    );

    // New commits: the change is read again; the report comment and the check run follow it.
    app.on("pull_request.synchronize", async (context) => {
      if (fromBot(context)) return;
      enqueue(context, { kind: "head-pushed" }, subjectOf(context));
    });

    app.on(["pull_request.labeled", "pull_request.unlabeled"], async (context) => {
      const { payload } = context;
      const trigger = labelTrigger(payload.action, payload.label);
      if (fromBot(context) || !trigger) return;
      enqueue(context, trigger, subjectOf(context));
    });

    // The backlog: a closed issue leaves the board (reopened, it is scored again); a deleted or
    // transferred one is gone. Installing the App, or adding a repository to it, backfills silently.
    app.on("issues.closed", async (context) => {
      await deps.backlog?.store.closeTask(repositoryName(context), context.payload.issue.number);
    });
    app.on(["issues.deleted", "issues.transferred"], async (context) => {
      await deps.backlog?.store.removeTask(repositoryName(context), context.payload.issue.number);
    });
    const backfill = async (
      installationId: number,
      repos: { full_name: string; private?: boolean }[] = [],
    ) => {
      if (!deps.backlog) return;
      for (const r of repos)
        await deps.backlog.store.requestBackfill(
          r.full_name,
          { installationId, private: r.private },
          // Installing learns from the repository's closed issues first (issue 18).
          { learn: !!deps.backlog.calibrations },
        );
      if (repos.length > 0) deps.backlog.runner.wake();
    };
    app.on("installation.created", async (context) => {
      await backfill(context.payload.installation.id, context.payload.repositories);
    });
    app.on("installation_repositories.added", async (context) => {
      await backfill(context.payload.installation.id, context.payload.repositories_added);
    });

    // GitHub Marketplace: a purchase, a change or a cancellation sets the account's plan.
    app.on("marketplace_purchase", async (context) => {
      if (!deps.metering) return;
      const set = await deps.metering.onMarketplacePurchase(context.payload as never);
      if (set) context.log.info(set, "plan set from GitHub Marketplace");
    });

    app.on("issue_comment.created", async (context) => {
      const { payload } = context;
      const command = commandIn(payload.comment.body ?? "");
      if (fromBot(context) || !command) return;
      const commenter = payload.comment.user?.login ?? payload.sender.login;
      enqueue(
        context,
        { kind: "command", command, commenter, commentId: payload.comment.id },
        subjectOf(context),
      );
    });
  };
}
