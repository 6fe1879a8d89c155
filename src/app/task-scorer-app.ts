import { createHash } from "node:crypto";
import type { ApplicationFunction, Context, Probot } from "probot";
import { LineCounter, parseDocument, isMap, isScalar } from "yaml";
import type { ApprovalPolicy } from "../core/approval.js";
import { isTaskScorerError } from "../core/errors.js";
import { REPORT_MARKER, escapeMarkdown, renderReport } from "../core/render-comment.js";
import type { Scorer } from "../core/scorer.js";
import { scoreTask } from "../core/score-task.js";
import { DESCRIPTION_MAX_CHARS, ScoreRequestSchema, TASK_MAX_CHARS } from "../core/task-request.schema.js";
import { applyApprovalLabels, type LabelsOctokit } from "../github/approval-labels.js";
import { upsertReportComment, type IssueCommentsOctokit, type IssueRef } from "../github/report-comment.js";
import type { AppMetering } from "../accounts/app-metering.js";
import { ConfigTooLargeError, limitConfigReads } from "./config-size-limit.js";
import { subjectKey } from "./delivery-handler.js";
import { QueueFullError, type Job, type JobQueue } from "./job-queue.js";
import {
  CONFIG_MAX_BYTES,
  REPO_CONFIG_FILE,
  compileTitlePattern,
  failClosedConfig,
  formatDiagnostic,
  parseRepoConfig,
  repoApprovalPolicy,
  type ConfigDiagnostic,
  type ParsedRepoConfig,
  type RepoConfig,
} from "./repo-config.schema.js";

export interface AppDeps {
  scorer: Scorer;
  /** Shown in the comment footer: "offline", "openai gpt-4o-mini". */
  scorerDescription: string;
  policy: ApprovalPolicy;
  queue: JobQueue;
  clock?: () => Date;
  /** With a database: reports are counted per GitHub account against its plan (see accounts/). */
  metering?: AppMetering;
}

/**
 * Time kept back from a job's limit for the GitHub writes after scoring (the comment, the labels,
 * or the note that scoring failed), so a report that hits its deadline can still say so.
 */
export const JOB_WRITE_RESERVE_MS = 10_000;

/** The scoring deadline inside a job: the job limit less the write reserve (at least half the limit). */
export function reportDeadlineForJob(jobTimeoutMs: number): number {
  return Math.max(jobTimeoutMs / 2, jobTimeoutMs - JOB_WRITE_RESERVE_MS);
}

/** Why a job looks at a subject. A job can carry several (a newer event absorbs a pending one's). */
type Trigger =
  | { kind: "issues"; action: "opened" | "reopened" | "edited" }
  | { kind: "pull-requests"; action: "opened" | "reopened" | "ready_for_review" | "edited" }
  | { kind: "label-added"; label: string }
  | { kind: "label-removed"; label: string }
  | { kind: "command"; command: "score" | "help"; commenter: string; commentId: number };

interface Subject {
  ref: IssueRef;
  title: string;
  body: string;
  isPullRequest: boolean;
  draft: boolean;
  labels: string[];
}

/** A line that is exactly `/score` or `/score <word>`; anything after `/score` other than `help` gets the help. */
const SCORE_COMMAND = /^[ \t]*\/score(?:[ \t]+(\S+))?[ \t]*$/im;
const HINT = "Comment `/score` to score again.";
/** Roles that may ask for a re-score: the same people who can label and close issues. */
const COMMAND_ROLES = new Set(["admin", "maintain", "write", "triage"]);
/** Marks the App's replies to commands, so they are never mistaken for the report. */
const REPLY_MARKER = "<!-- task-scorer:reply -->";

function hashText(title: string, body: string): string {
  return createHash("sha256").update(title).update("\u0000").update(body).digest("hex").slice(0, 32);
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join("");
}

type Log = Context["log"];

/** The YAML parser's position of a syntax error (1-based), from the error Probot wraps. */
function yamlErrorPosition(error: unknown): { line: number; column: number; problem: string } | undefined {
  const cause = (error as { cause?: unknown })?.cause as
    { linePos?: { line: number; col: number }[]; message?: string } | undefined;
  const pos = cause?.linePos?.[0];
  if (!pos) return undefined;
  // The parser's message is "<what> at line L, column C:" followed by an excerpt; keep the what.
  const problem = (cause.message ?? "invalid YAML")
    .split("\n")[0]!
    .replace(/ at line \d+, column \d+:?$/, "");
  return { line: pos.line, column: pos.col, problem };
}

/**
 * Where each key-level problem sits in the repository's own file. Read only when there are problems
 * (rare); a key that came from an `_extends` base is not in this file and keeps no position.
 */
async function locateKeys(context: Context, diagnostics: ConfigDiagnostic[]): Promise<void> {
  if (!diagnostics.some((d) => d.key)) return;
  try {
    const { data } = await context.octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...context.repo(),
      path: `.github/${REPO_CONFIG_FILE}`,
      mediaType: { format: "raw" },
    });
    if (typeof data !== "string") return;
    const lineCounter = new LineCounter();
    const doc = parseDocument(data, { lineCounter });
    if (!isMap(doc.contents)) return;
    for (const d of diagnostics) {
      const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === d.key);
      const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (offset === undefined) continue;
      const { line, col } = lineCounter.linePos(offset);
      d.line = line;
      d.column = col;
    }
  } catch (error) {
    context.log.debug({ err: error }, "could not locate config problems in the file");
  }
}

/**
 * The repository's config, with every problem logged at warn (with line and column). A file that
 * cannot be read at all might have said `enabled: false`, so the App stays quiet (fails closed).
 * No problem text ever carries a URL: Probot's own messages (which name the API URL) stay out.
 */
async function loadConfig(context: Context, log: Log): Promise<ParsedRepoConfig> {
  let parsed: ParsedRepoConfig;
  limitConfigReads(context.octokit, CONFIG_MAX_BYTES);
  try {
    parsed = parseRepoConfig(await context.config(REPO_CONFIG_FILE));
    await locateKeys(context, parsed.diagnostics);
  } catch (error) {
    const pos = yamlErrorPosition(error);
    const status = (error as { status?: unknown })?.status;
    const diagnostic: ConfigDiagnostic =
      error instanceof ConfigTooLargeError
        ? { message: `${error.message}, the most the App reads; the App stays off until it is smaller` }
        : pos
          ? {
              message: `is not valid YAML (${pos.problem}); the App stays off until it is fixed`,
              line: pos.line,
              column: pos.column,
            }
          : {
              message: `could not be read${typeof status === "number" ? ` (GitHub answered ${status})` : ""}; the App stays off until it can be`,
            };
    parsed = { config: failClosedConfig(), diagnostics: [diagnostic], failedClosed: true };
  }
  for (const d of parsed.diagnostics) {
    log.warn(
      { file: `.github/${REPO_CONFIG_FILE}`, key: d.key, line: d.line, column: d.column, problem: d.message },
      "repository config problem",
    );
  }
  return parsed;
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

/** A reaction is a receipt, not the work: failing to add one must not stop the job. */
async function react(context: Context, ref: IssueRef, commentId: number, content: "eyes" | "confused") {
  try {
    await context.octokit.rest.reactions.createForIssueComment({
      owner: ref.owner,
      repo: ref.repo,
      comment_id: commentId,
      content,
    });
  } catch (error) {
    context.log.warn({ err: error, commentId, content }, "could not add a reaction");
  }
}

async function reply(context: Context, ref: IssueRef, lines: string[]): Promise<void> {
  await context.octokit.rest.issues.createComment({ ...ref, body: [REPLY_MARKER, ...lines, ""].join("\n") });
}

/**
 * Problems as a plain-text block: nothing in it is rendered (no links, no @mentions), and the
 * file's own words (a key name) cannot close the block early.
 */
function diagnosticLines(diagnostics: readonly ConfigDiagnostic[]): string[] {
  const text = diagnostics.map((d) => formatDiagnostic(d).replace(/`{3,}/g, "'''"));
  return ["```text", ...text, "```"];
}

function helpText(config: ParsedRepoConfig): string[] {
  const c = config.config;
  const mode =
    c.trigger === "always"
      ? "every new issue and pull request is scored"
      : c.trigger === "label"
        ? `issues and pull requests are scored when they carry the label \`${escapeMarkdown(c["trigger-label"])}\``
        : "issues and pull requests are scored only on `/score`";
  const lines = [
    "**task-scorer commands** (from people with triage, write, maintain or admin access):",
    "",
    "- `/score`: score this issue or pull request now, even if nothing changed. 👀 means it was accepted.",
    "- `/score help`: this help.",
    "",
    `In this repository ${c.enabled ? mode : "the App is turned off"} (\`.github/${REPO_CONFIG_FILE}\`).`,
  ];
  if (config.diagnostics.length > 0) {
    lines.push("", "Problems in the configuration:", ...diagnosticLines(config.diagnostics));
  } else {
    lines.push("The configuration has no problems.");
  }
  return lines;
}

function skippedBy(config: RepoConfig, subject: Subject): string | undefined {
  const skipLabel = subject.labels.find((l) => config["skip-labels"].includes(l));
  if (skipLabel) return `skip label ${skipLabel}`;
  const pattern = config["skip-title-patterns"].find((p) =>
    compileTitlePattern(p).matcher(subject.title).find(),
  );
  if (pattern) return `title matches skip pattern ${pattern}`;
  return undefined;
}

/** Why this trigger does not score the subject under this config, or undefined when it does. */
function skipReason(config: RepoConfig, trigger: Trigger, subject: Subject): string | undefined {
  if (!config.enabled) return "disabled by repository config";
  const hasTriggerLabel = subject.labels.includes(config["trigger-label"]);
  switch (trigger.kind) {
    case "command":
      if (!config.triggers["score-command"]) return "score command disabled";
      break;
    case "label-added":
      if (config.trigger !== "label" || trigger.label !== config["trigger-label"])
        return `label ${trigger.label} does not ask for a score`;
      break;
    case "label-removed":
      if (!config["skip-labels"].includes(trigger.label)) return `label ${trigger.label} is not a skip label`;
      if (config.trigger === "command") return "trigger mode command";
      if (config.trigger === "label" && !hasTriggerLabel) return "trigger label absent";
      break;
    default: {
      if (config.trigger === "command") return "trigger mode command";
      if (config.trigger === "label" && !hasTriggerLabel) return "trigger label absent";
      const enabled = config.triggers[trigger.kind] as readonly string[];
      if (!enabled.includes(trigger.action)) return `trigger ${trigger.kind}.${trigger.action} disabled`;
    }
  }
  if (trigger.kind !== "command" && subject.draft && config.drafts === "skip") return "draft pull request";
  return skippedBy(config, subject);
}

/**
 * One job for one subject: answer commands (a receipt or a refusal), then score when any reason
 * holds under the repository's config, and write the comment and labels. Runs in the queue, never
 * in the webhook request; `signal` aborts at the job's time limit.
 */
async function runJob(
  context: Context,
  deps: AppDeps,
  triggers: readonly Trigger[],
  subject: Subject,
  signal: AbortSignal,
): Promise<void> {
  const log = context.log.child({
    subject: subjectKey(subject.ref),
  });
  const started = Date.now();
  let scoreAsked = false;
  let helpAsked = false;
  for (const t of triggers) {
    if (t.kind !== "command") continue;
    if (!(await canCommand(context, subject.ref, t.commenter))) {
      log.info({ commenter: t.commenter }, "/score from someone without write or triage access refused");
      await react(context, subject.ref, t.commentId, "confused");
      continue;
    }
    await react(context, subject.ref, t.commentId, "eyes");
    if (t.command === "help") helpAsked = true;
    else scoreAsked = true;
  }
  const reasons = triggers.filter((t) => t.kind !== "command" || (t.command === "score" && scoreAsked));
  if (reasons.length === 0 && !helpAsked) return;

  const loaded = await loadConfig(context, log);
  const { config, diagnostics } = loaded;
  if (helpAsked) await reply(context, subject.ref, helpText(loaded));
  // Configuration problems are for maintainers: they go with the answer to a maintainer's `/score`,
  // never into the report on a contributor's issue.
  const tellMaintainer = async () => {
    if (scoreAsked && !helpAsked && diagnostics.length > 0) {
      await reply(context, subject.ref, [
        "task-scorer found problems in the repository configuration:",
        "",
        ...diagnosticLines(diagnostics),
      ]);
    }
  };

  const why = reasons.map((t) => skipReason(config, t, subject));
  if (!why.some((r) => r === undefined)) {
    if (reasons.length > 0) log.info({ reasons: why }, "not scored");
    await tellMaintainer();
    return;
  }

  const input = ScoreRequestSchema.parse({
    task: clip(subject.title, TASK_MAX_CHARS),
    description: clip(subject.body, DESCRIPTION_MAX_CHARS),
  });
  const policy = repoApprovalPolicy(config, deps.policy);
  const octokit = context.octokit as unknown as IssueCommentsOctokit & LabelsOctokit;
  const timeoutMs = reportDeadlineForJob(deps.queue.jobTimeoutMs) - (Date.now() - started);
  // A Free account over its allowance gets a short note in place of a report: not an error, and no
  // model time spent on a report it will not get.
  const allowanceNote = async () => {
    log.info({ account: subject.ref.owner }, "monthly allowance used: note instead of a report");
    if (config.comment && deps.metering)
      await upsertReportComment(
        octokit,
        subject.ref,
        [REPORT_MARKER, "### Task score: paused for this month", "", deps.metering.allowanceNote(), ""].join(
          "\n",
        ),
      );
    await tellMaintainer();
  };
  if (deps.metering && !(await deps.metering.hasAllowance(subject.ref.owner))) return allowanceNote();

  let outcome;
  try {
    outcome = await scoreTask(
      input,
      { scorer: deps.scorer, policy, ...(deps.clock ? { clock: deps.clock } : {}) },
      { signal, timeoutMs },
    );
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
    await tellMaintainer();
    return;
  }

  // Counted once per delivery (a redelivery is the same task); the last task of the month can be taken
  // by another instance between the check above and here, and then this one gets the note too.
  if (
    deps.metering &&
    (await deps.metering.charge(subject.ref.owner, context.id, outcome.report)) === "over_allowance"
  )
    return allowanceNote();

  if (config.comment) {
    const body = renderReport(outcome.report, outcome.approval, {
      scorer: deps.scorerDescription,
      hint: HINT,
      style: config["comment-style"],
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
  await tellMaintainer();
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
    const reasonsOf = new WeakMap<Job, Trigger[]>();
    const enqueue = (context: Context, trigger: Trigger, subject: Subject) => {
      const triggers: Trigger[] = [trigger];
      const job: Job = {
        subject: subjectKey(subject.ref),
        deliveryId: context.id,
        contentHash: hashText(subject.title, subject.body),
        // A person asked, or a label changed: the text may be the same, the answer may not.
        force:
          trigger.kind === "command" || trigger.kind === "label-added" || trigger.kind === "label-removed",
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

    app.on(["pull_request.labeled", "pull_request.unlabeled"], async (context) => {
      const { payload } = context;
      const trigger = labelTrigger(payload.action, payload.label);
      if (fromBot(context) || !trigger) return;
      const pr = payload.pull_request;
      enqueue(context, trigger, subjectOf(context, pr, { isPullRequest: true, draft: pr.draft }));
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
          command: match[1] === undefined ? "score" : "help",
          commenter,
          commentId: payload.comment.id,
        },
        subjectOf(context, payload.issue, { isPullRequest: Boolean(payload.issue.pull_request) }),
      );
    });
  };
}
