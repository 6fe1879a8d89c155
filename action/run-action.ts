import type { CreatedScorer, ScorerSettings } from "../src/llm/create-scorer.js";
import {
  possibleDuplicateOf,
  REPORT_MARKER,
  renderReport,
  type SimilarMention,
} from "../src/core/render-comment.js";
import type { ScoreReport } from "../src/core/score-report.schema.js";
import { scoreTask } from "../src/core/score-task.js";
import type { LlmLogger } from "../src/llm/llm-logger.js";
import type { LabelsOctokit } from "../src/github/github-request.js";
import type { GitHubRequest } from "../src/github/github-request.js";
import { kindLabelNames, type KindLabelNames } from "../src/github/kind-labels.js";
import {
  PublishError,
  publishReport,
  type PublishedOutput,
  type PublishResult,
} from "../src/github/publish-report.js";
import type { ResolvedOutputs } from "../src/repo-config/resolve-outputs.js";
import { actionOutputs, readRepoFile, type ExplicitInputs } from "./repo-file.js";
import { type IssueCommentsOctokit, type IssueRef, type UpsertResult } from "../src/github/report-comment.js";
import { ActionError, failureMessage, githubError } from "./errors.js";
import { parseInputs, type ActionInputs, type InputName } from "./inputs.schema.js";
import { readEventItem, resolveTask, type EventContext, type EventItem } from "./read-event.js";
import { readPullRequestChange } from "./read-change.js";
import { readSimilarIssues, similarOutput } from "./read-similar.js";

/** The slice of `@actions/core` the Action uses (the real module satisfies it). */
export interface ActionCore {
  getInput: (name: string) => string;
  setSecret: (secret: string) => void;
  setOutput: (name: string, value: string) => void;
  setFailed: (message: string) => void;
  info: (message: string) => void;
  notice: (message: string) => void;
  warning: (message: string) => void;
  debug: (message: string) => void;
  summary: { addRaw: (text: string, addEOL?: boolean) => { write: () => Promise<unknown> } };
}

/** The slice of an Octokit from `@actions/github`'s `getOctokit` the Action uses. */
export type ActionOctokit = IssueCommentsOctokit & LabelsOctokit & GitHubRequest;

export interface ActionDeps {
  core: ActionCore;
  /** `@actions/github`'s `context` (read once, at import, from `GITHUB_EVENT_PATH` and `GITHUB_EVENT_NAME`). */
  context: EventContext;
  getOctokit: (token: string) => ActionOctokit;
  createScorer: (settings: ScorerSettings, deps: { logger?: LlmLogger }) => CreatedScorer;
  env: Record<string, string | undefined>;
  clock?: () => Date;
}

export interface ActionResult {
  /** False when the step was marked failed; `message` is the sentence given to `setFailed`. */
  ok: boolean;
  message?: string;
  report?: ScoreReport;
  comment?: UpsertResult;
}

/** Inputs whose values must never appear in a log: masked before anything else runs. */
const SECRET_INPUTS: readonly InputName[] = ["openai-api-key", "github-token"];

const SECRET_KEY = /key|token|secret|authorization|password/i;

/** The scorer's structured logs, as workflow log lines; keys that could hold secrets are dropped. */
function scorerLogger(core: ActionCore): LlmLogger {
  const line = (obj: object, msg?: string) => {
    const fields = JSON.stringify(obj, (k, v: unknown) => (k !== "" && SECRET_KEY.test(k) ? undefined : v));
    return [msg, fields === "{}" ? undefined : fields].filter(Boolean).join(" ");
  };
  // The scorer's own info lines name the server's environment variables; the Action logs its choice itself.
  return {
    info: (obj, msg) => core.debug(line(obj, msg)),
    warn: (obj, msg) => core.warning(line(obj, msg)),
    error: (obj, msg) => core.warning(line(obj, msg)),
    debug: (obj, msg) => core.debug(line(obj, msg)),
  };
}

function isOwnReportComment(context: EventContext): boolean {
  const comment = context.payload.comment;
  if (context.eventName !== "issue_comment" || typeof comment !== "object" || comment === null) return false;
  const body = (comment as { body?: unknown }).body;
  return typeof body === "string" && body.includes(REPORT_MARKER);
}

async function writeSummary(deps: ActionDeps, markdown: string): Promise<void> {
  if (!deps.env.GITHUB_STEP_SUMMARY) {
    deps.core.debug("GITHUB_STEP_SUMMARY is not set: no job summary written.");
    return;
  }
  try {
    await deps.core.summary.addRaw(markdown, true).write();
  } catch (error) {
    deps.core.warning(
      `The job summary could not be written (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** The outputs the step's own inputs ask for, before the repository's file is read. */
function explicitInputs(inputs: ActionInputs): ExplicitInputs {
  return { output: inputs.output, comment: inputs.commentInput, labels: inputs.labels };
}

function describeWrites(outputs: ResolvedOutputs, item: EventItem | undefined): string {
  return [
    outputs.comment && "the report comment",
    outputs.needsHumanLabel || outputs.kindLabels
      ? "the labels"
      : outputs.approvalLabels && "the approval labels",
    outputs.check && (!item || item.kind === "pull_request") && "the check run",
  ]
    .filter(Boolean)
    .join(" and ");
}

/** The write each output is, in the sentences of `githubError` (the Action never writes a board). */
const WHAT = {
  comment: "write comments",
  labels: "set labels",
  check: "create check runs",
  project: "write comments", // never asked of the publisher here: a workflow token cannot reach a board
} as const satisfies Record<PublishedOutput, Parameters<typeof githubError>[1]>;

/** A workflow token has no access to Projects v2; said in the log and in the job summary. */
export const PROJECT_SKIPPED =
  "A workflow token cannot reach Projects v2 boards, so `project` was skipped: the GitHub App writes the board (with its Organization projects permission).";

async function writeToGitHub(
  deps: ActionDeps,
  inputs: ActionInputs,
  item: EventItem | undefined,
  markdown: string,
  report: ScoreReport,
  similar: readonly SimilarMention[] | undefined,
): Promise<UpsertResult | undefined> {
  const { core } = deps;
  const asked = actionOutputs(explicitInputs(inputs), undefined);
  if (!item) {
    const what = describeWrites(asked, item);
    if (what)
      core.notice(
        `Skipped ${what}: ${deps.context.eventName ? `this \`${deps.context.eventName}\` event` : "this run"} has no issue or pull request. The report is in the step's outputs and job summary.`,
      );
    return undefined;
  }
  if (!inputs.githubToken) {
    const what = describeWrites(asked, item);
    if (!what) return undefined;
    throw new ActionError(
      "missing_token",
      `The \`github-token\` input is empty, so ${what} cannot be written: leave it unset (it defaults to \`\${{ github.token }}\`), or set \`comment: false\` and leave the label inputs empty.`,
    );
  }
  const octokit = deps.getOctokit(inputs.githubToken);
  const file = await readRepoFile(octokit, item.owner, item.repo);
  for (const warning of file.warnings) core.warning(warning);
  const outputs = actionOutputs(explicitInputs(inputs), file.config);
  const ref: IssueRef = { owner: item.owner, repo: item.repo, issue_number: item.number };
  const where = `${item.kind === "issue" ? "issue" : "pull request"} #${item.number}`;
  const pr = deps.context.payload.pull_request as { head?: { sha?: unknown } } | undefined;

  let published: PublishResult;
  try {
    // A workflow token cannot reach a board (see PROJECT_SKIPPED): the publisher is not asked for one.
    published = await publishReport(
      octokit,
      { ...outputs, project: undefined },
      {
        ref,
        isPullRequest: item.kind === "pull_request",
        headSha: typeof pr?.head?.sha === "string" ? pr.head.sha : undefined,
        // `duplicate-label` in the repository's file: where the comment says "Possibly the same as".
        duplicateOf: possibleDuplicateOf(similar),
      },
      report,
      {
        markdown,
        kindLabelNames: () => kindLabelNames((file.config?.["kind-labels"] ?? {}) as KindLabelNames),
      },
    );
  } catch (error) {
    if (error instanceof PublishError) throw githubError(error.cause, WHAT[error.output]);
    throw error;
  }
  const { comment, labels, check } = published;
  if (comment) {
    const removed = comment.removedDuplicates ? ` (${comment.removedDuplicates} duplicate(s) removed)` : "";
    core.info(
      `Report comment ${comment.action} on ${where}${comment.url ? `: ${comment.url}` : ""}${removed}.`,
    );
  }
  if (labels) {
    const { added, removed } = labels;
    core.info(
      `Labels on ${where}: ${added.length ? `added ${added.join(", ")}` : "none added"}; ${removed.length ? `removed ${removed.join(", ")}` : "none removed"}.`,
    );
  }
  if (outputs.check && item.kind !== "pull_request")
    core.info(`No check run on ${where}: check runs are for pull requests.`);
  if (check)
    core.info(`Check run "task-scorer" (${check.conclusion}) written on ${check.headSha.slice(0, 7)}.`);
  // The step fails on the first refusal, with the permission to add; the others are warnings in the log.
  const [first, ...others] = published.problems;
  for (const p of others) core.warning(githubError(p.error, WHAT[p.output]).message);
  if (first) throw githubError(first.error, WHAT[first.output]);
  if (outputs.project) {
    core.notice(PROJECT_SKIPPED);
    await writeSummary(deps, `\n> ℹ️ ${PROJECT_SKIPPED}\n`);
  }
  return comment;
}

/**
 * The whole Action: read inputs and the event, score with the core, write the outputs and the job
 * summary, then the comment and labels. Every failure takes one path: a typed error, turned into
 * one sentence for `core.setFailed`. Outputs written before a failure stay written.
 */
export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { core } = deps;
  const result: ActionResult = { ok: true };
  try {
    for (const name of SECRET_INPUTS) {
      const value = core.getInput(name).trim();
      if (value) core.setSecret(value);
    }
    const inputs = parseInputs((name) => core.getInput(name));
    if (isOwnReportComment(deps.context)) {
      // With a token whose writes trigger workflows (a PAT), scoring here would loop on our own comment.
      core.notice("Skipped: this `issue_comment` event is the report comment itself; nothing was scored.");
      return result;
    }
    const item = readEventItem(deps.context, deps.env.GITHUB_REPOSITORY);
    const task = resolveTask(inputs, item, deps.context.eventName);
    for (const warning of task.warnings) core.warning(warning);

    const { scorer, description } = deps.createScorer(inputs.scorer, { logger: scorerLogger(core) });
    core.info(
      `Scoring ${task.source === "event" && item ? `${item.kind === "issue" ? "issue" : "pull request"} #${item.number}` : "the `task` input"} with the ${description} scorer.`,
    );
    // A pull request's change: its files with the workflow's token, or the event's totals (read-change.ts).
    const change = await readPullRequestChange(deps, inputs.githubToken, item, deps.context.payload);
    const { report, approval } = await scoreTask(task.input, {
      scorer,
      policy: inputs.policy,
      change,
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
    result.report = report;
    // An issue's earlier open issues like it (read-similar.ts): the comment's line and the `similar` output.
    const similar =
      task.source === "event" ? await readSimilarIssues(deps, inputs.githubToken, item) : undefined;

    const { consensus } = report;
    core.setOutput("avg-score", String(consensus.avgScore));
    core.setOutput("min-score", String(consensus.minScore));
    core.setOutput("max-score", String(consensus.maxScore));
    core.setOutput("approved", String(consensus.approved));
    core.setOutput("report", JSON.stringify(report));
    core.setOutput("kind", report.reading.kind);
    core.setOutput("evidence", JSON.stringify(report.reading.evidence));
    if (similar) core.setOutput("similar", similarOutput(similar));
    core.info(
      `Average ${consensus.avgScore} (lowest ${consensus.minScore}, highest ${consensus.maxScore}): ${consensus.approved ? "approved" : "not approved"}.`,
    );

    const markdown = renderReport(report, approval, {
      scorer: description,
      notes: task.warnings,
      ...(similar ? { similar } : {}),
    });
    await writeSummary(deps, markdown);
    const comment = await writeToGitHub(deps, inputs, item, markdown, report, similar);
    if (comment) result.comment = comment;

    if (inputs.failOnReject && !consensus.approved) {
      const failed = approval.conditions.filter((c) => !c.passed).map((c) => c.summary);
      throw new ActionError(
        "not_approved",
        `The task is not approved (${failed.join("; ")}), and \`fail-on-reject\` is true.`,
      );
    }
    return result;
  } catch (error) {
    const message = failureMessage(error);
    core.setFailed(message);
    return { ...result, ok: false, message };
  }
}
