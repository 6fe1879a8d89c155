import { createHash } from "node:crypto";
import type { ApplicationFunction, Context, Probot } from "probot";
import type { ApprovalPolicy } from "../core/approval.js";
import { isTaskScorerError } from "../core/errors.js";
import { REPORT_MARKER, escapeMarkdown, renderReport } from "../core/render-comment.js";
import type { Scorer } from "../core/scorer.js";
import { scoreTask } from "../core/score-task.js";
import { DESCRIPTION_MAX_CHARS, ScoreRequestSchema, TASK_MAX_CHARS } from "../core/task-request.schema.js";
import { applyApprovalLabels, type LabelsOctokit } from "../github/approval-labels.js";
import { upsertReportComment, type IssueCommentsOctokit, type IssueRef } from "../github/report-comment.js";
import type { JobQueue } from "./job-queue.js";
import {
  REPO_CONFIG_FILE,
  parseRepoConfig,
  repoApprovalPolicy,
  type RepoConfig,
} from "./repo-config.schema.js";

export interface AppDeps {
  scorer: Scorer;
  /** Shown in the comment footer: "offline", "openai gpt-4o-mini". */
  scorerDescription: string;
  policy: ApprovalPolicy;
  queue: JobQueue;
  clock?: () => Date;
}

type Trigger =
  | { kind: "issues"; action: "opened" | "reopened" | "edited" }
  | { kind: "pull-requests"; action: "opened" | "reopened" | "ready_for_review" | "edited" }
  | { kind: "score-command"; commenter: string };

interface Subject {
  ref: IssueRef;
  title: string;
  body: string;
  isPullRequest: boolean;
  draft: boolean;
  labels: string[];
}

const SCORE_COMMAND = /^\s*\/score\s*$/im;
const HINT = "Comment `/score` to score again.";
/** Roles that may ask for a re-score: the same people who can label and close issues. */
const COMMAND_ROLES = new Set(["admin", "maintain", "write", "triage"]);

function hashText(title: string, body: string): string {
  return createHash("sha256").update(title).update("\u0000").update(body).digest("hex").slice(0, 32);
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join("");
}

async function loadConfig(context: Context): Promise<{ config: RepoConfig; notes: string[] }> {
  try {
    return parseRepoConfig(await context.config(REPO_CONFIG_FILE));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : "unreadable";
    context.log.warn({ err: error }, "repository config unreadable; using defaults");
    const parsed = parseRepoConfig(undefined);
    return {
      config: parsed.config,
      notes: [`.github/${REPO_CONFIG_FILE} could not be read (${reason}); the defaults are used.`],
    };
  }
}

async function canCommand(context: Context, ref: IssueRef, username: string): Promise<boolean> {
  try {
    const { data } = await context.octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: ref.owner,
      repo: ref.repo,
      username,
    });
    const role = (data as { role_name?: string }).role_name ?? data.permission;
    return COMMAND_ROLES.has(role) || data.permission === "admin" || data.permission === "write";
  } catch (error) {
    // 404: not a collaborator at all.
    context.log.debug({ err: error, username }, "permission check failed; command ignored");
    return false;
  }
}

function skipReason(config: RepoConfig, trigger: Trigger, subject: Subject): string | undefined {
  if (!config.enabled) return "disabled by repository config";
  if (trigger.kind === "score-command") {
    if (!config.triggers["score-command"]) return "score command disabled";
  } else {
    const enabled = config.triggers[trigger.kind] as readonly string[];
    if (!enabled.includes(trigger.action)) return `trigger ${trigger.kind}.${trigger.action} disabled`;
    if (subject.draft && config.drafts === "skip") return "draft pull request";
  }
  const skipLabel = subject.labels.find((l) => config["skip-labels"].includes(l));
  if (skipLabel) return `skip label ${skipLabel}`;
  const pattern = config["skip-title-patterns"].find((p) => new RegExp(p, "i").test(subject.title));
  if (pattern) return `title matches skip pattern ${pattern}`;
  return undefined;
}

/** Score one issue or PR and write the comment and labels. Runs in the queue, never in the webhook request. */
async function scoreSubject(
  context: Context,
  deps: AppDeps,
  trigger: Trigger,
  subject: Subject,
): Promise<void> {
  const log = context.log.child({
    subject: `${subject.ref.owner}/${subject.ref.repo}#${subject.ref.issue_number}`,
  });
  if (trigger.kind === "score-command" && !(await canCommand(context, subject.ref, trigger.commenter))) {
    log.info({ commenter: trigger.commenter }, "/score from someone without write or triage access ignored");
    return;
  }
  const { config, notes } = await loadConfig(context);
  const reason = skipReason(config, trigger, subject);
  if (reason) {
    log.info({ reason }, "not scored");
    return;
  }

  const input = ScoreRequestSchema.parse({
    task: clip(subject.title, TASK_MAX_CHARS),
    description: clip(subject.body, DESCRIPTION_MAX_CHARS),
  });
  const policy = repoApprovalPolicy(config, deps.policy);
  const octokit = context.octokit as unknown as IssueCommentsOctokit & LabelsOctokit;

  let outcome;
  try {
    outcome = await scoreTask(input, {
      scorer: deps.scorer,
      policy,
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
  } catch (error) {
    if (!isTaskScorerError(error)) throw error;
    log.warn({ code: error.code, message: error.message }, "scoring failed");
    if (config.comment) {
      const body = [
        REPORT_MARKER,
        "### Task score: not available",
        "",
        `> ⚠️ task-scorer could not score this ${subject.isPullRequest ? "pull request" : "issue"}: ${escapeMarkdown(error.message)}`,
        "",
        `<sub>${HINT}</sub>`,
        "",
      ].join("\n");
      await upsertReportComment(octokit, subject.ref, body);
    }
    return;
  }

  if (config.comment) {
    const body = renderReport(outcome.report, outcome.approval, {
      scorer: deps.scorerDescription,
      notes,
      hint: HINT,
    });
    const result = await upsertReportComment(octokit, subject.ref, body);
    log.info(
      {
        action: result.action,
        commentId: result.commentId,
        avgScore: outcome.report.consensus.avgScore,
        approved: outcome.report.consensus.approved,
      },
      "report comment written",
    );
  }
  if (config.labels.approved || config.labels.rejected) {
    await applyApprovalLabels(
      octokit,
      subject.ref,
      { approved: config.labels.approved ?? undefined, rejected: config.labels.rejected ?? undefined },
      outcome.report.consensus.approved,
      subject.labels,
    );
  }
}

function labelsOf(item: { labels?: unknown }): string[] {
  const labels = Array.isArray(item.labels) ? (item.labels as unknown[]) : [];
  return labels
    .map((l) => (typeof l === "string" ? l : typeof l === "object" && l && "name" in l ? String(l.name) : ""))
    .filter(Boolean);
}

/**
 * The Probot app. Handlers only decide whether an event is interesting and enqueue the work; the
 * webhook is acknowledged at once.
 */
export function taskScorerApp(deps: AppDeps): ApplicationFunction {
  return (app: Probot) => {
    const enqueue = (context: Context, trigger: Trigger, subject: Subject) => {
      const result = deps.queue.enqueue({
        subject: `${subject.ref.owner}/${subject.ref.repo}#${subject.ref.issue_number}`,
        deliveryId: context.id,
        contentHash: hashText(subject.title, subject.body),
        force: trigger.kind === "score-command",
        run: () => scoreSubject(context, deps, trigger, subject),
      });
      context.log.debug({ delivery: context.id, result }, "enqueued");
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

    app.on(["issues.opened", "issues.reopened", "issues.edited"], async (context) => {
      const { payload } = context;
      if (fromBot(context) || textUnchanged(payload)) return;
      enqueue(
        context,
        { kind: "issues", action: payload.action },
        subjectOf(context, payload.issue, { isPullRequest: false }),
      );
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

    app.on("issue_comment.created", async (context) => {
      const { payload } = context;
      if (fromBot(context) || !SCORE_COMMAND.test(payload.comment.body ?? "")) return;
      const commenter = payload.comment.user?.login ?? payload.sender.login;
      enqueue(
        context,
        { kind: "score-command", commenter },
        subjectOf(context, payload.issue, { isPullRequest: Boolean(payload.issue.pull_request) }),
      );
    });
  };
}
