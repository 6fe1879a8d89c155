import { SCORE_COMMAND } from "./commands.js";
import type { OutputProblems } from "./output-problems.js";
import { runJob } from "./run-job.js";
import { hashText } from "./task-text.js";
import { labelsOf, type Subject, type Trigger } from "./skip-rules.js";
import type { ApplicationFunction, Context, Probot } from "probot";
import type { ApprovalPolicy } from "../core/approval.js";
import type { Scorer } from "../core/scorer.js";
import type { AppMetering } from "../accounts/app-metering.js";
import { subjectKey } from "./delivery-handler.js";
import { followEventRepository, repositoryName } from "./backlog-app.js";
import { QueueFullError, type Job, type JobQueue } from "./job-queue.js";
import type { BackfillRunner } from "../backlog/backfill-runner.js";
import type { BacklogStore } from "../backlog/backlog-store.js";
import type { LearnedLabelNames } from "../github/kind-labels.js";
import type { CalibrationStore } from "../learning/calibration-store.js";

export interface AppBacklog {
  store: BacklogStore;
  runner: Pick<BackfillRunner, "wake">;
  /** Where the repository's board is, for the reply to `/score backlog`. */
  boardUrl(repository: string): string;
  /** What was learned from each repository's closed issues (issue 18): new issues' reports use it too. */
  calibrations?: Pick<CalibrationStore, "get"> | undefined;
}

export interface AppDeps {
  scorer: Scorer;
  /** Shown in the comment footer: "offline", "openai gpt-4o-mini". */
  scorerDescription: string;
  policy: ApprovalPolicy;
  queue: JobQueue;
  clock?: () => Date;
  /** With a database: reports are counted per GitHub account against its plan (see accounts/). */
  metering?: AppMetering;
  /** With a database: the backlog (every open issue's latest report) and its silent backfill. */
  backlog?: AppBacklog;
  /** The repository's own kind label names, once learned (`output: [labels]`); optional. */
  learnedLabelNames?: LearnedLabelNames;
  /** Problems the outputs met, shared by a fleet with a database; this process's memory without one. */
  outputProblems?: OutputProblems | undefined;
}

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
        // the text is the same, but the new head commit has no check run yet.
        force:
          trigger.kind === "command" ||
          trigger.kind === "label-added" ||
          trigger.kind === "label-removed" ||
          trigger.kind === "head-pushed",
        installation: String((context.payload as { installation?: { id?: number } }).installation?.id ?? ""),
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
    const subjectOf = (
      context: Context,
      item: { title: string; body?: string | null; labels?: unknown },
      kind: { isPullRequest: boolean; draft?: boolean | undefined },
    ): Subject => ({
      ref: context.issue(),
      title: item.title,
      body: item.body ?? "",
      isPullRequest: kind.isPullRequest,
      draft: Boolean(kind.draft),
      labels: labelsOf(item),
    });
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
      enqueue(
        context,
        { kind: "issues", action: payload.action },
        subjectOf(context, payload.issue, { isPullRequest: false }),
      );
    });

    app.on(["issues.labeled", "issues.unlabeled"], async (context) => {
      const { payload } = context;
      const trigger = labelTrigger(payload.action, payload.label);
      if (fromBot(context) || !trigger) return;
      enqueue(context, trigger, subjectOf(context, payload.issue, { isPullRequest: false }));
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
        const pr = payload.pull_request;
        enqueue(
          context,
          { kind: "pull-requests", action: payload.action },
          subjectOf(context, pr, { isPullRequest: true, draft: pr.draft }),
        );
      },
    );

    // New commits: the check run (when `output` has `check`) moves to the new head commit.
    app.on("pull_request.synchronize", async (context) => {
      if (fromBot(context)) return;
      const pr = context.payload.pull_request;
      enqueue(
        context,
        { kind: "head-pushed" },
        subjectOf(context, pr, { isPullRequest: true, draft: pr.draft }),
      );
    });

    app.on(["pull_request.labeled", "pull_request.unlabeled"], async (context) => {
      const { payload } = context;
      const trigger = labelTrigger(payload.action, payload.label);
      if (fromBot(context) || !trigger) return;
      const pr = payload.pull_request;
      enqueue(context, trigger, subjectOf(context, pr, { isPullRequest: true, draft: pr.draft }));
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
      const match = SCORE_COMMAND.exec(payload.comment.body ?? "");
      if (fromBot(context) || !match) return;
      const commenter = payload.comment.user?.login ?? payload.sender.login;
      enqueue(
        context,
        {
          kind: "command",
          command:
            match[1] === undefined
              ? "score"
              : match[1].toLowerCase() === "backlog"
                ? "backlog"
                : match[1].toLowerCase() === "learn"
                  ? "learn"
                  : "help",
          commenter,
          commentId: payload.comment.id,
        },
        subjectOf(context, payload.issue, { isPullRequest: Boolean(payload.issue.pull_request) }),
      );
    });
  };
}
