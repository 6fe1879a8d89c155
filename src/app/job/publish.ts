/**
 * Step 7, publish: the report (or the note in its place) through the one publisher, and the configuration's
 * problems told to the maintainer who asked with `/score`.
 */
import type { Context } from "probot";
import {
  escapeMarkdown,
  possibleDuplicateOf,
  REPORT_MARKER,
  renderReport,
  type SimilarMention,
} from "../../core/render-comment.js";
import type { ScoreOutcome } from "../../core/score-task.js";
import type { TaskScorerError } from "../../core/errors.js";
import { apiBaseUrl } from "../../github/github-request.js";
import type { PublishClient } from "../../github/publish-report.js";
import type { ConfigDiagnostic, RepoConfig } from "../../repo-config/repo-config.schema.js";
import type { ResolvedOutputs } from "../../repo-config/resolve-outputs.js";
import { HINT, reply } from "../commands/command.js";
import type { EventItem } from "../event.js";
import { writeNote, writeOutputs } from "../outputs.js";
import { diagnosticLines } from "../repo-config-loader.js";
import type { AppDeps, Subject } from "../types.js";

/** What every step of one job shares: the event, its subject, and where it logs. */
export interface JobRun {
  context: Context;
  deps: AppDeps;
  subject: Subject;
  item: EventItem | undefined;
  /** "owner/name", as GitHub spells it. */
  repository: string;
  log: Context["log"];
}

function client(run: JobRun): PublishClient {
  // Probot's Octokit has every method the publisher uses; its route types are Probot's own.
  return run.context.octokit as unknown as PublishClient;
}

/** The rendered report through every output the repository asks for. Returns the problems they met. */
export async function publishScored(
  run: JobRun,
  outputs: ResolvedOutputs,
  config: RepoConfig,
  outcome: ScoreOutcome,
  similar?: readonly SimilarMention[],
): Promise<ConfigDiagnostic[]> {
  const { deps, subject } = run;
  const markdown = renderReport(outcome.report, outcome.approval, {
    scorer: deps.scorerDescription,
    hint: HINT,
    style: config["comment-style"],
    ...(similar ? { similar } : {}),
  });
  return writeOutputs(
    client(run),
    outputs,
    config,
    {
      repository: run.repository,
      ref: subject.ref,
      isPullRequest: subject.isPullRequest,
      nodeId: run.item?.nodeId,
      labels: subject.labels,
      headSha: run.item?.headSha,
      // The possible-duplicate label (`duplicate-label`) goes where the comment's line says "Possibly the same as".
      duplicateOf: possibleDuplicateOf(similar),
    },
    outcome.report,
    {
      log: run.log,
      apiBaseUrl: apiBaseUrl(run.context.octokit),
      markdown,
      learnedLabelNames: deps.learnedLabelNames,
      problems: deps.outputProblems,
    },
  );
}

async function note(run: JobRun, outputs: ResolvedOutputs, lines: string[]): Promise<ConfigDiagnostic[]> {
  if (!outputs.comment) return [];
  return writeNote(
    client(run),
    { repository: run.repository, ref: run.subject.ref },
    [REPORT_MARKER, ...lines, ""].join("\n"),
    { log: run.log, problems: run.deps.outputProblems },
  );
}

/** A Free account over its allowance: a short note in place of a report (not an error). */
export async function publishAllowanceNote(
  run: JobRun,
  outputs: ResolvedOutputs,
): Promise<ConfigDiagnostic[]> {
  run.log.info({ account: run.subject.ref.owner }, "monthly allowance used: note instead of a report");
  if (!run.deps.metering) return [];
  return note(run, outputs, ["### Task score: paused for this month", "", run.deps.metering.allowanceNote()]);
}

/** Scoring failed in a way the core names (a model down, the deadline): said in the report's place. */
export async function publishScoringFailed(
  run: JobRun,
  outputs: ResolvedOutputs,
  error: TaskScorerError,
): Promise<ConfigDiagnostic[]> {
  run.log.warn({ code: error.code, message: error.message }, "scoring failed");
  return note(run, outputs, [
    "### Task score: not available",
    "",
    `> ⚠️ task-scorer could not score this ${run.subject.isPullRequest ? "pull request" : "issue"}: ${escapeMarkdown(error.message)}`,
    "",
    `<sub>${HINT}</sub>`,
  ]);
}

/**
 * Configuration problems are for maintainers: they go with the answer to a maintainer's `/score` (not when
 * `/score help` already listed them), never into the report on a contributor's issue.
 */
export async function tellMaintainer(
  run: JobRun,
  asked: { score: boolean; help: boolean },
  diagnostics: readonly ConfigDiagnostic[],
): Promise<void> {
  if (!asked.score || asked.help || diagnostics.length === 0) return;
  await reply(run.context, run.subject.ref, [
    "task-scorer found problems in the repository configuration:",
    "",
    ...diagnosticLines(diagnostics),
  ]);
}
