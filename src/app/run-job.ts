/** The job runner: what one queued job for one issue or pull request does, from commands to the GitHub writes. */
import { HINT, canCommand, helpText, react, reply } from "./commands.js";
import { diagnosticLines, loadConfig } from "./repo-config-loader.js";
import { skipReason, type Subject, type Trigger } from "./skip-rules.js";
import type { AppDeps } from "./task-scorer-app.js";
import type { Context } from "probot";
import { isTaskScorerError } from "../core/errors.js";
import { REPORT_MARKER, escapeMarkdown, renderReport } from "../core/render-comment.js";
import { scoreTask } from "../core/score-task.js";
import { DESCRIPTION_MAX_CHARS, ScoreRequestSchema, TASK_MAX_CHARS } from "../core/task-request.schema.js";
import type { LabelsOctokit } from "../github/approval-labels.js";
import { apiBaseUrl, type GitHubRequest } from "../github/github-request.js";
import { copyScoreCheckRun } from "../github/check-run.js";
import { outputProblems, writeOutputs } from "./outputs.js";
import { upsertReportComment, type IssueCommentsOctokit } from "../github/report-comment.js";
import { subjectKey } from "./delivery-handler.js";
import { clip, hashText } from "./task-text.js";
import { askBackfill, repositoryName } from "./backlog-app.js";
import { askLearning } from "./learning-app.js";
import { taskRecord } from "../backlog/task-record.js";
import { repoApprovalPolicy } from "../repo-config/repo-config.schema.js";
import { NO_OUTPUTS, resolveOutputs } from "../repo-config/resolve-outputs.js";

/**
 * Time kept back from a job's limit for the GitHub writes after scoring (the comment, the labels,
 * or the note that scoring failed), so a report that hits its deadline can still say so.
 */
export const JOB_WRITE_RESERVE_MS = 10_000;

/** The scoring deadline inside a job: the job limit less the write reserve (at least half the limit). */
export function reportDeadlineForJob(jobTimeoutMs: number): number {
  return Math.max(jobTimeoutMs / 2, jobTimeoutMs - JOB_WRITE_RESERVE_MS);
}

/**
 * One job for one subject: answer commands (a receipt or a refusal), then score when any reason
 * holds under the repository's config, and write the comment and labels. Runs in the queue, never
 * in the webhook request; `signal` aborts at the job's time limit.
 */
function issueState(context: Context): string | undefined {
  return (context.payload as { issue?: { state?: string } }).issue?.state;
}

export async function runJob(
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
  let backlogAsked = false;
  let learnAsked = false;
  for (const t of triggers) {
    if (t.kind !== "command") continue;
    if (!(await canCommand(context, subject.ref, t.commenter))) {
      log.info({ commenter: t.commenter }, "/score from someone without write or triage access refused");
      await react(context, subject.ref, t.commentId, "confused");
      continue;
    }
    await react(context, subject.ref, t.commentId, "eyes");
    if (t.command === "help") helpAsked = true;
    else if (t.command === "backlog") backlogAsked = true;
    else if (t.command === "learn") learnAsked = true;
    else scoreAsked = true;
  }
  const reasons = triggers.filter((t) => t.kind !== "command" || (t.command === "score" && scoreAsked));
  if (reasons.length === 0 && !helpAsked && !backlogAsked && !learnAsked) return;

  const loaded = await loadConfig(context, log);
  const { config } = loaded;
  // What an output met earlier (a board it cannot reach) is told to maintainers with the file's problems.
  // Read only when a maintainer's command will show them: an ordinary event costs no lookup.
  const diagnostics = [
    ...loaded.diagnostics,
    ...(helpAsked || scoreAsked ? await outputProblems(repositoryName(context), deps.outputProblems) : []),
  ];
  // New commits on a pull request move only its check run to the new head: the text, and so the report, are
  // the ones already published (and already counted), so nothing else is written or charged.
  const pushOnly = reasons.length > 0 && reasons.every((t) => t.kind === "head-pushed");
  const resolved = resolveOutputs(config);
  const outputs = pushOnly ? { ...NO_OUTPUTS, check: resolved.check } : resolved;
  if (helpAsked) await reply(context, subject.ref, helpText({ ...loaded, diagnostics }));
  if (backlogAsked) await reply(context, subject.ref, await askBackfill(context, deps, subject));
  if (learnAsked) await reply(context, subject.ref, await askLearning(context, deps, subject));
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

  if (pushOnly && outputs.check && subject.isPullRequest && (await checkRunMoved(context, log))) {
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
    if (outputs.comment && deps.metering)
      await upsertReportComment(
        octokit,
        subject.ref,
        [REPORT_MARKER, "### Task score: paused for this month", "", deps.metering.allowanceNote(), ""].join(
          "\n",
        ),
      );
    await tellMaintainer();
  };
  // One task of the allowance is held before the model is asked (as REST does), so parallel jobs of one
  // account score no more reports than it has left; a push-only job counts nothing, so it only checks.
  const held = deps.metering && !pushOnly ? await deps.metering.hold(subject.ref.owner) : undefined;
  if (deps.metering && (pushOnly ? !(await deps.metering.hasAllowance(subject.ref.owner)) : !held))
    return allowanceNote();

  let outcome;
  try {
    outcome = await scoreTask(
      input,
      {
        scorer: deps.scorer,
        policy,
        calibration: await deps.backlog?.calibrations?.get(repositoryName(context)),
        ...(deps.clock ? { clock: deps.clock } : {}),
      },
      { signal, timeoutMs },
    );
  } catch (error) {
    if (held) await deps.metering!.release(held);
    if (!isTaskScorerError(error)) throw error;
    log.warn({ code: error.code, message: error.message }, "scoring failed");
    if (outputs.comment) {
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

  // Counted once per delivery (a redelivery is the same task, and gives its hold back), on the task held above.
  if (
    held &&
    (await deps.metering!.charge(subject.ref.owner, context.id, outcome.report, held)) === "over_allowance"
  )
    return allowanceNote();

  // The board lists open issues: an edit to a closed one updates nothing there.
  if (deps.backlog && !subject.isPullRequest && issueState(context) !== "closed") {
    const issue = (
      context.payload as { issue?: { html_url?: string; created_at?: string; updated_at?: string } }
    ).issue;
    await deps.backlog.store.saveTask(
      taskRecord(
        repositoryName(context),
        {
          number: subject.ref.issue_number,
          title: subject.title,
          url: issue?.html_url ?? "",
          createdAt: issue?.created_at,
          updatedAt: issue?.updated_at,
        },
        outcome.report,
        hashText(subject.title, subject.body),
      ),
    );
  }

  const body = renderReport(outcome.report, outcome.approval, {
    scorer: deps.scorerDescription,
    hint: HINT,
    style: config["comment-style"],
  });
  if (outputs.comment) {
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
  const payload = context.payload as {
    issue?: { node_id?: string };
    pull_request?: { node_id?: string; head?: { sha?: string } };
  };
  const met = await writeOutputs(
    context.octokit as unknown as GitHubRequest,
    outputs,
    config,
    {
      repository: repositoryName(context),
      ref: subject.ref,
      isPullRequest: subject.isPullRequest,
      nodeId: payload.pull_request?.node_id ?? payload.issue?.node_id,
      labels: subject.labels,
      headSha: payload.pull_request?.head?.sha,
    },
    outcome.report,
    {
      log,
      apiBaseUrl: apiBaseUrl(context.octokit),
      markdown: body,
      learnedLabelNames: deps.learnedLabelNames,
      problems: deps.outputProblems,
    },
  );
  for (const d of met)
    if (!diagnostics.some((x) => x.key === d.key && x.message === d.message)) diagnostics.push(d);
  await tellMaintainer();
}

/**
 * New commits on a pull request: its report's check run on the previous head is written again on the new head,
 * as it was (see copyScoreCheckRun). False when there is nothing to copy or copying failed: the job then scores
 * and writes the check run as on any event (and a failure there is told to maintainers as usual).
 */
async function checkRunMoved(context: Context, log: Context["log"]): Promise<boolean> {
  const payload = context.payload as { before?: string; pull_request?: { head?: { sha?: string } } };
  const headSha = payload.pull_request?.head?.sha;
  if (!payload.before || !headSha) return false;
  const { owner, repo } = context.repo();
  try {
    const run = await copyScoreCheckRun(
      context.octokit as unknown as GitHubRequest,
      { owner, repo, headSha },
      payload.before,
    );
    if (run) log.info({ checkRun: run.id, conclusion: run.conclusion }, "check run moved to the new head");
    return !!run;
  } catch (error) {
    log.warn({ err: error }, "check run: the previous head's could not be copied; scoring again");
    return false;
  }
}
