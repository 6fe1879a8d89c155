/**
 * The one publisher: a report's comment, labels, Projects v2 field and check run, for the App, the backfill and
 * the Action alike, with one error policy. A refusal (401, 403, 404, 410, a board it cannot reach) is a problem:
 * a person's fix, not a retry, so it is returned and the other outputs are still written. Anything else (GitHub
 * unreachable, a 5xx, a rate limit, the backfill's pause) is thrown as a PublishError naming the output: the
 * caller's run fails and is retried, and what was written before stays written. Each adapter words the problems
 * for its own readers (the App's maintainers, the Action's workflow author).
 */
import type { ScoreReport } from "../core/score-report.schema.js";
import type { ResolvedOutputs } from "../repo-config/resolve-outputs.js";
import { createScoreCheckRun } from "./check-run.js";
import { httpStatus, isPermissionStatus, labelsClient, type GitHubRequest } from "./github-request.js";
import type { ReadingKind } from "./kind-labels.js";
import { ProjectUnreachable, setProjectScore, type ProjectWrite } from "./project-v2.js";
import {
  upsertReportComment,
  type IssueCommentsOctokit,
  type IssueRef,
  type UpsertResult,
} from "./report-comment.js";
import { pullRequestHeadSha, writeReportLabels, type ReportLabelsWritten } from "./report-labels.js";

export type PublishedOutput = "comment" | "labels" | "project" | "check";

/** A write GitHub refused: the output, its status (none for a board it cannot reach), and the error. */
export interface PublishProblem {
  output: PublishedOutput;
  status: number | undefined;
  error: unknown;
}

/** A failure that is not a refusal, with the output it stopped at (its cause is GitHub's error). */
export class PublishError extends Error {
  readonly output: PublishedOutput;

  constructor(output: PublishedOutput, cause: unknown) {
    super(`${output}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "PublishError";
    this.output = output;
  }
}

/**
 * Whether an error is a refusal (see the header). A 403 or 429 that says the rate limit is used up is GitHub
 * asking to wait, not a refusal: it is passed on like any other pause.
 */
export function isRefusal(error: unknown): boolean {
  if (error instanceof ProjectUnreachable) return true;
  const status = httpStatus(error);
  if (!isPermissionStatus(status)) return false;
  const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};
  return String(headers["x-ratelimit-remaining"]) !== "0" && headers["retry-after"] === undefined;
}

export interface PublishTarget {
  ref: IssueRef;
  isPullRequest: boolean;
  /** The issue's or pull request's GraphQL node id (for the board). */
  nodeId?: string | undefined;
  /** The labels it carries now; looked up when unknown. */
  labels?: readonly string[] | undefined;
  /** A pull request's head commit (for the check run); looked up when unknown. */
  headSha?: string | undefined;
  /**
   * The earlier issue the report's comment names as "Possibly the same as" (render-comment.ts,
   * possibleDuplicateOf), if any: where the possible-duplicate label (`duplicate-label`) is written.
   */
  duplicateOf?: number | undefined;
}

export interface PublishOptions {
  /** The rendered report: the comment's body and the check run's summary. */
  markdown: string;
  /** The kind labels' names in this repository (asked only when the kind label is written). */
  kindLabelNames: () => Promise<ReadonlyMap<ReadingKind, string>> | ReadonlyMap<ReadingKind, string>;
  /** The REST base URL (GHE: https://HOST/api/v3), so GraphQL goes to the right place. */
  apiBaseUrl?: string | undefined;
}

export interface PublishResult {
  /** The outputs written (each attempted write that GitHub accepted), in order. */
  written: PublishedOutput[];
  problems: PublishProblem[];
  comment?: UpsertResult;
  labels?: ReportLabelsWritten;
  project?: ProjectWrite;
  check?: { id: number | undefined; conclusion: "success" | "neutral"; headSha: string };
}

/** A client for every output; the comment needs Octokit's `rest` besides `request`. */
export type PublishClient = GitHubRequest & Partial<IssueCommentsOctokit>;

async function currentLabels(github: GitHubRequest, ref: IssueRef): Promise<string[]> {
  // One page of 100: an issue carries at most 100 labels.
  const { data } = await github.request("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", {
    ...ref,
    per_page: 100,
  });
  return (data as { name?: string }[]).map((l) => l.name).filter((n): n is string => typeof n === "string");
}

/** Runs one output's write under the policy, noting what it wrote or the refusal it met in `result`. */
function attempter(result: PublishResult) {
  return async <T>(output: PublishedOutput, write: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await write();
      result.written.push(output);
      return value;
    } catch (error) {
      if (!isRefusal(error)) throw new PublishError(output, error);
      result.problems.push({ output, status: httpStatus(error), error });
      return undefined;
    }
  };
}

function upsertComment(github: PublishClient, ref: IssueRef, markdown: string): Promise<UpsertResult> {
  if (!github.rest) throw new Error("a comment needs an Octokit with rest");
  return upsertReportComment(github as IssueCommentsOctokit, ref, markdown);
}

/**
 * The report comment alone, under the same policy: the notes written in a report's place (scoring failed, the
 * month's allowance used).
 */
export async function publishComment(
  github: PublishClient,
  ref: IssueRef,
  markdown: string,
): Promise<PublishResult> {
  const result: PublishResult = { written: [], problems: [] };
  const comment = await attempter(result)("comment", () => upsertComment(github, ref, markdown));
  if (comment) result.comment = comment;
  return result;
}

/**
 * Write what `outputs` asks for on one issue or pull request, in the order comment, labels, board, check run
 * (the check run and the size label only on a pull request, the possible-duplicate label only on an issue). See the header for what is returned and what is thrown.
 */
export async function publishReport(
  github: PublishClient,
  outputs: ResolvedOutputs,
  target: PublishTarget,
  report: ScoreReport,
  options: PublishOptions,
): Promise<PublishResult> {
  const result: PublishResult = { written: [], problems: [] };
  const attempt = attempter(result);
  if (outputs.comment) {
    const comment = await attempt("comment", () => upsertComment(github, target.ref, options.markdown));
    if (comment) result.comment = comment;
  }

  // A size label only where the change was read: a pull request whose files could not be listed keeps its label.
  const sizeLabels = target.isPullRequest && report.reading.change ? outputs.sizeLabels : undefined;
  // The possible-duplicate label only on an issue whose comment says "Possibly the same as"; never taken off.
  const duplicateLabel =
    !target.isPullRequest && target.duplicateOf !== undefined ? outputs.duplicateLabel : undefined;
  if (
    outputs.approvalLabels ||
    outputs.needsHumanLabel ||
    outputs.kindLabels ||
    sizeLabels ||
    duplicateLabel
  ) {
    const labels = await attempt("labels", async () =>
      writeReportLabels(
        labelsClient(github),
        target.ref,
        { ...outputs, sizeLabels, duplicateLabel },
        report,
        target.labels ?? (await currentLabels(github, target.ref)),
        options.kindLabelNames,
      ),
    );
    if (labels) result.labels = labels;
  }

  if (outputs.project) {
    const board = outputs.project;
    const project = await attempt("project", () => {
      if (!target.nodeId) throw new ProjectUnreachable("the item has no node id to add to the board");
      return setProjectScore(github, board, target.nodeId, report.consensus.avgScore, {
        baseUrl: options.apiBaseUrl,
      });
    });
    if (project) result.project = project;
  }

  if (outputs.check && target.isPullRequest) {
    const check = await attempt("check", async () => {
      const headSha = await pullRequestHeadSha(github, target.ref, target.headSha);
      const run = await createScoreCheckRun(
        github,
        { owner: target.ref.owner, repo: target.ref.repo, headSha },
        report,
        options.markdown,
      );
      return { ...run, headSha };
    });
    if (check) result.check = check;
  }
  return result;
}
