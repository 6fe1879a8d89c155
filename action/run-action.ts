import type { CreatedScorer, ScorerSettings } from "../src/llm/create-scorer.js";
import { REPORT_MARKER, renderReport } from "../src/core/render-comment.js";
import type { ScoreReport } from "../src/core/score-report.schema.js";
import { scoreTask } from "../src/core/score-task.js";
import type { LlmLogger } from "../src/llm/openai-scorer.js";
import { applyApprovalLabels, type LabelsOctokit } from "../src/github/approval-labels.js";
import {
  upsertReportComment,
  type IssueCommentsOctokit,
  type IssueRef,
  type UpsertResult,
} from "../src/github/report-comment.js";
import { ActionError, failureMessage, githubError } from "./errors.js";
import { parseInputs, type ActionInputs, type InputName } from "./inputs.schema.js";
import { readEventItem, resolveTask, type EventContext, type EventItem } from "./read-event.js";

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
export type ActionOctokit = IssueCommentsOctokit & LabelsOctokit;

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

function wantsLabels(inputs: ActionInputs): boolean {
  return Boolean(inputs.labels.approved || inputs.labels.rejected);
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

async function currentLabels(octokit: ActionOctokit, ref: IssueRef): Promise<string[]> {
  const labels = (await octokit.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/labels", {
    ...ref,
    per_page: 100,
  })) as { name?: string }[];
  return labels.map((l) => l.name).filter((n): n is string => typeof n === "string");
}

async function writeToGitHub(
  deps: ActionDeps,
  inputs: ActionInputs,
  item: EventItem | undefined,
  markdown: string,
  approved: boolean,
): Promise<UpsertResult | undefined> {
  const { core } = deps;
  const what = [inputs.comment && "the report comment", wantsLabels(inputs) && "the approval labels"]
    .filter(Boolean)
    .join(" and ");
  if (!what) return undefined;
  if (!item) {
    core.notice(
      `Skipped ${what}: ${deps.context.eventName ? `this \`${deps.context.eventName}\` event` : "this run"} has no issue or pull request. The report is in the step's outputs and job summary.`,
    );
    return undefined;
  }
  if (!inputs.githubToken) {
    throw new ActionError(
      "missing_token",
      `The \`github-token\` input is empty, so ${what} cannot be written: leave it unset (it defaults to \`\${{ github.token }}\`), or set \`comment: false\` and leave the label inputs empty.`,
    );
  }
  const octokit = deps.getOctokit(inputs.githubToken);
  const ref: IssueRef = { owner: item.owner, repo: item.repo, issue_number: item.number };
  const where = `${item.kind === "issue" ? "issue" : "pull request"} #${item.number}`;

  let comment: UpsertResult | undefined;
  if (inputs.comment) {
    try {
      comment = await upsertReportComment(octokit, ref, markdown);
    } catch (error) {
      throw githubError(error, "write comments");
    }
    const removed = comment.removedDuplicates ? ` (${comment.removedDuplicates} duplicate(s) removed)` : "";
    core.info(
      `Report comment ${comment.action} on ${where}${comment.url ? `: ${comment.url}` : ""}${removed}.`,
    );
  }
  if (wantsLabels(inputs)) {
    try {
      const current = await currentLabels(octokit, ref);
      const { added, removed } = await applyApprovalLabels(octokit, ref, inputs.labels, approved, current);
      core.info(
        `Labels on ${where}: ${added.length ? `added ${added.join(", ")}` : "none added"}; ${removed.length ? `removed ${removed.join(", ")}` : "none removed"}.`,
      );
    } catch (error) {
      throw githubError(error, "set labels");
    }
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
    const { report, approval } = await scoreTask(task.input, {
      scorer,
      policy: inputs.policy,
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
    result.report = report;

    const { consensus } = report;
    core.setOutput("avg-score", String(consensus.avgScore));
    core.setOutput("min-score", String(consensus.minScore));
    core.setOutput("max-score", String(consensus.maxScore));
    core.setOutput("approved", String(consensus.approved));
    core.setOutput("report", JSON.stringify(report));
    core.setOutput("kind", report.reading.kind);
    core.setOutput("evidence", JSON.stringify(report.reading.evidence));
    core.info(
      `Average ${consensus.avgScore} (lowest ${consensus.minScore}, highest ${consensus.maxScore}): ${consensus.approved ? "approved" : "not approved"}.`,
    );

    const markdown = renderReport(report, approval, { scorer: description, notes: task.warnings });
    await writeSummary(deps, markdown);
    const comment = await writeToGitHub(deps, inputs, item, markdown, consensus.approved);
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
