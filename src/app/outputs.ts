/**
 * The App's side of the one publisher (src/github/publish-report.ts): the job and the silent backfill write through
 * it, and what GitHub refuses (no permission, no board) becomes a problem for maintainers: logged once, listed in
 * the reply to `/score` and `/score help`, never written on a contributor's issue, kept until that output works.
 */
import type { ScoreReport } from "../core/score-report.schema.js";
import { httpStatus } from "../github/github-request.js";
import { kindLabelNames, type KindLabelNames, type LearnedLabelNames } from "../github/kind-labels.js";
import { ProjectUnreachable } from "../github/project-v2.js";
import {
  PublishError,
  publishComment,
  publishReport,
  type PublishClient,
  type PublishProblem,
  type PublishResult,
} from "../github/publish-report.js";
import type { IssueRef } from "../github/report-comment.js";
import type { ConfigDiagnostic, RepoConfig } from "../repo-config/repo-config.schema.js";
import type { ResolvedOutputs } from "../repo-config/resolve-outputs.js";
import { MemoryOutputProblems, type OutputProblems } from "./output-problems.js";

type Log = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
};

/** Without a store of their own (tests, the App without a database), problems live in this process. */
let processProblems = new MemoryOutputProblems();

/**
 * The problems an output met in this repository, for `/score` and `/score help`. A database that cannot answer
 * lists none: telling maintainers is never a reason to fail the job.
 */
export async function outputProblems(
  repository: string,
  store?: OutputProblems,
): Promise<ConfigDiagnostic[]> {
  return (store ?? processProblems).list(repository).catch(() => []);
}

/** For tests: this process's problems forgotten. */
export function forgetOutputProblems(): void {
  processProblems = new MemoryOutputProblems();
}

export interface OutputTarget {
  /** "owner/repo" */
  repository: string;
  ref: IssueRef;
  isPullRequest: boolean;
  /** The issue's or pull request's GraphQL node id (for the board). */
  nodeId: string | undefined;
  /** The labels it carries now. */
  labels: readonly string[];
  /** A pull request's head commit (for the check run); looked up when unknown. */
  headSha?: string | undefined;
  /** The earlier issue the comment names as "Possibly the same as": the possible-duplicate label's cue. */
  duplicateOf?: number | undefined;
}

export interface OutputOptions {
  log: Log;
  /** The REST base URL (GHE: https://HOST/api/v3), so GraphQL goes to the right place. */
  apiBaseUrl?: string | undefined;
  /** The rendered report: the comment and the check run's summary. */
  markdown?: string;
  /** Names the repository's own labels have, once learned (see LearnedLabelNames). */
  learnedLabelNames?: LearnedLabelNames | undefined;
  /** Where problems are kept (shared by a fleet with a database); this process's memory by default. */
  problems?: OutputProblems | undefined;
}

function describe(error: unknown): string {
  if (error instanceof ProjectUnreachable) return error.message;
  const status = httpStatus(error);
  return status === undefined ? "GitHub could not be reached" : `GitHub answered ${status}`;
}

/** A refusal in the words of the App's maintainers (the Action words its own). */
function problemMessage({ output, status, error }: PublishProblem): string {
  switch (output) {
    case "comment":
      return `the report comment could not be written (${describe(error)}): the App needs Issues: write and Pull requests: write, and the conversation must not be locked`;
    case "labels":
      return `labels could not be written (${describe(error)}): the App needs Issues: write`;
    case "project":
      return `\`project\`: ${describe(error)}`;
    case "check":
      return `the check run could not be written (${describe(error)})${status === 403 ? ": the App needs Checks: write (an owner accepts the new permission in the installation's settings)" : ""}`;
  }
}

function logWrites(log: Log, result: PublishResult, report: ScoreReport): void {
  if (result.comment)
    log.info(
      {
        action: result.comment.action,
        commentId: result.comment.commentId,
        avgScore: report.consensus.avgScore,
        approved: report.consensus.approved,
      },
      "report comment written",
    );
  if (result.labels && (result.labels.added.length > 0 || result.labels.removed.length > 0))
    log.info(result.labels, "labels written");
  if (result.project)
    log.info(
      { item: result.project.itemId, fieldCreated: result.project.fieldCreated },
      "project item written",
    );
  if (result.check)
    log.info({ checkRun: result.check.id, conclusion: result.check.conclusion }, "check run written");
}

/**
 * Write what `outputs` asks for, the comment included when it does. Returns the problems met (also remembered
 * for `/score help`). Anything but a refusal is thrown as GitHub's own error, so the job queue retries it and
 * the backfill sees its rate-limit pauses.
 */
export async function writeOutputs(
  github: PublishClient,
  outputs: ResolvedOutputs,
  config: Pick<RepoConfig, "kind-labels">,
  target: OutputTarget,
  report: ScoreReport,
  options: OutputOptions,
): Promise<ConfigDiagnostic[]> {
  const result = await unwrapped(() =>
    publishReport(github, outputs, target, report, {
      markdown: options.markdown ?? "",
      apiBaseUrl: options.apiBaseUrl,
      kindLabelNames: async () =>
        kindLabelNames(
          config["kind-labels"] as KindLabelNames,
          await options.learnedLabelNames?.(target.repository),
        ),
    }),
  );
  logWrites(options.log, result, report);
  return remember(result, target.repository, options);
}

/** A note in the report's place (scoring failed, the allowance used): the comment alone, under the same policy. */
export async function writeNote(
  github: PublishClient,
  target: Pick<OutputTarget, "repository" | "ref">,
  markdown: string,
  options: Pick<OutputOptions, "log" | "problems">,
): Promise<ConfigDiagnostic[]> {
  const result = await unwrapped(() => publishComment(github, target.ref, markdown));
  return remember(result, target.repository, options);
}

/** GitHub's own error, not the publisher's wrapper: the queue and the backfill's pauses look at it. */
async function unwrapped(publish: () => Promise<PublishResult>): Promise<PublishResult> {
  try {
    return await publish();
  } catch (error) {
    throw error instanceof PublishError ? error.cause : error;
  }
}

/**
 * Refusals remembered for maintainers (logged when new), and the outputs that worked cleared. A database that
 * fails here never fails an output that worked, nor hides one that did not (the problem is then logged each
 * time, and still told in this answer).
 */
async function remember(
  result: PublishResult,
  repository: string,
  options: Pick<OutputOptions, "log" | "problems">,
): Promise<ConfigDiagnostic[]> {
  const store = options.problems ?? processProblems;
  const met: ConfigDiagnostic[] = [];
  for (const problem of result.problems) {
    const message = problemMessage(problem);
    if (await store.note(repository, problem.output, message).catch(() => true))
      options.log.warn({ repository, output: problem.output, problem: message }, "output problem");
    met.push({ key: problem.output, message });
  }
  for (const output of result.written) await store.clear(repository, output).catch(() => undefined);
  return met;
}
