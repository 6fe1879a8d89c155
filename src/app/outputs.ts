/**
 * The App's outputs beyond the comment (`output` in .github/task-scorer.yml): labels (verdict, needs-human,
 * kind), a Projects v2 board, a check run on pull requests. Used by the job runner and by the silent backfill
 * (which never comments). What GitHub refuses (no permission, no board) becomes a problem for maintainers:
 * logged once, listed in the reply to `/score` and `/score help`, never written on a contributor's issue.
 */
import type { ScoreReport } from "../core/score-report.schema.js";
import { createScoreCheckRun } from "../github/check-run.js";
import {
  httpStatus,
  isPermissionStatus,
  labelsClient,
  type GitHubRequest,
} from "../github/github-request.js";
import { kindLabelNames, type KindLabelNames, type LearnedLabelNames } from "../github/kind-labels.js";
import { pullRequestHeadSha, writeReportLabels } from "../github/report-labels.js";
import { ProjectUnreachable, setProjectScore } from "../github/project-v2.js";
import type { IssueRef } from "../github/report-comment.js";
import type { ConfigDiagnostic, RepoConfig } from "../repo-config/repo-config.schema.js";
import { MemoryOutputProblems, type OutputProblems } from "./output-problems.js";
import type { ResolvedOutputs } from "../repo-config/resolve-outputs.js";

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
}

export interface OutputOptions {
  log: Log;
  /** The REST base URL (GHE: https://HOST/api/v3), so GraphQL goes to the right place. */
  apiBaseUrl?: string | undefined;
  /** The rendered report, for the check run's summary. */
  markdown?: string;
  /** Names the repository's own labels have, once learned (see LearnedLabelNames). */
  learnedLabelNames?: LearnedLabelNames | undefined;
  /**
   * Errors to pass on rather than note as a problem (the backfill's rate-limit pauses). By default only
   * label errors other than a refusal are passed on, as before.
   */
  passOn?: (error: unknown) => boolean;
  /** Where problems are kept (shared by a fleet with a database); this process's memory by default. */
  problems?: OutputProblems | undefined;
}

const KEYS = { labels: "labels", project: "project", check: "check" } as const;

function describe(error: unknown): string {
  if (error instanceof ProjectUnreachable) return error.message;
  const status = httpStatus(error);
  return status === undefined ? "GitHub could not be reached" : `GitHub answered ${status}`;
}

/**
 * Write every output but the comment. Returns the problems met (also remembered for `/score help`).
 * Label errors other than a refusal (401/403/404) are thrown, as they always were; the board and the check
 * run never fail the job.
 */
export async function writeOutputs(
  github: GitHubRequest,
  outputs: ResolvedOutputs,
  config: Pick<RepoConfig, "kind-labels">,
  target: OutputTarget,
  report: ScoreReport,
  options: OutputOptions,
): Promise<ConfigDiagnostic[]> {
  const met: ConfigDiagnostic[] = [];
  const { log } = options;
  const { repository } = target;
  const store = options.problems ?? processProblems;
  // Remembering a problem is for maintainers: a database that fails here never fails an output that worked, nor
  // hides one that did not (the problem is then logged each time, and still told in this answer).
  const problem = async (key: string, message: string) => {
    if (await store.note(repository, key, message).catch(() => true))
      log.warn({ repository, output: key, problem: message }, "output problem");
    met.push({ key, message });
  };
  const clearProblem = (repository: string, key: string) =>
    store.clear(repository, key).catch(() => undefined);
  const passOn = options.passOn ?? (() => false);

  const labels = labelsClient(github);
  if (outputs.approvalLabels || outputs.needsHumanLabel || outputs.kindLabels) {
    try {
      const written = await writeReportLabels(labels, target.ref, outputs, report, target.labels, async () =>
        kindLabelNames(
          config["kind-labels"] as KindLabelNames,
          await options.learnedLabelNames?.(repository),
        ),
      );
      if (written.added.length > 0 || written.removed.length > 0) log.info(written, "labels written");
      await clearProblem(repository, KEYS.labels);
    } catch (error) {
      if (passOn(error) || !isPermissionStatus(httpStatus(error))) throw error;
      await problem(
        KEYS.labels,
        `labels could not be written (${describe(error)}): the App needs Issues: write`,
      );
    }
  }

  if (outputs.project) {
    try {
      if (!target.nodeId) throw new ProjectUnreachable("the item has no node id to add to the board");
      const written = await setProjectScore(
        github,
        outputs.project,
        target.nodeId,
        report.consensus.avgScore,
        {
          baseUrl: options.apiBaseUrl,
        },
      );
      log.info({ item: written.itemId, fieldCreated: written.fieldCreated }, "project item written");
      await clearProblem(repository, KEYS.project);
    } catch (error) {
      if (passOn(error)) throw error;
      await problem(KEYS.project, `\`project\`: ${describe(error)}`);
    }
  }

  if (outputs.check && target.isPullRequest) {
    try {
      const headSha = await pullRequestHeadSha(github, target.ref, target.headSha);
      const run = await createScoreCheckRun(
        github,
        { owner: target.ref.owner, repo: target.ref.repo, headSha },
        report,
        options.markdown ?? "",
      );
      log.info({ checkRun: run.id, conclusion: run.conclusion }, "check run written");
      await clearProblem(repository, KEYS.check);
    } catch (error) {
      if (passOn(error)) throw error;
      const status = httpStatus(error);
      await problem(
        KEYS.check,
        `the check run could not be written (${describe(error)})${status === 403 ? ": the App needs Checks: write (an owner accepts the new permission in the installation's settings)" : ""}`,
      );
    }
  }
  return met;
}
