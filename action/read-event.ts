import {
  DESCRIPTION_MAX_CHARS,
  ScoreRequestSchema,
  TASK_MAX_CHARS,
  codePointLength,
  type TaskInput,
} from "../src/core/task-request.schema.js";
import { ActionError } from "./errors.js";

/** The events whose issue or pull request the Action documents as a task source and comment target. */
export const SUPPORTED_EVENTS = ["issues", "issue_comment", "pull_request", "pull_request_target"] as const;

/** The issue or pull request an event is about. */
export interface EventItem {
  kind: "issue" | "pull_request";
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string;
}

/** The slice of `@actions/github`'s `context` this module reads. */
export interface EventContext {
  eventName: string | undefined;
  payload: Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function ownerAndRepo(
  payload: Record<string, unknown>,
  repository: string | undefined,
): { owner: string; repo: string } | undefined {
  const repo = record(payload.repository);
  const owner = record(repo?.owner);
  if (typeof owner?.login === "string" && typeof repo?.name === "string") {
    return { owner: owner.login, repo: repo.name };
  }
  const [o, r] = (repository ?? "").split("/");
  return o && r ? { owner: o, repo: r } : undefined;
}

/**
 * The issue or pull request of the event: `issue` for `issues` and `issue_comment` (a comment on a
 * PR arrives as an issue with a `pull_request` key), `pull_request` for the `pull_request*` events.
 * Any other event whose payload carries one of them works the same way; anything else is undefined.
 * `repository` is `GITHUB_REPOSITORY` ("owner/name"), used when the payload names no repository.
 */
export function readEventItem(context: EventContext, repository?: string): EventItem | undefined {
  const { payload } = context;
  const issue = record(payload.issue);
  const pr = record(payload.pull_request);
  const item = issue ?? pr;
  if (!item || typeof item.number !== "number" || !Number.isInteger(item.number)) return undefined;
  const where = ownerAndRepo(payload, repository);
  if (!where) return undefined;
  const isPr = issue ? issue.pull_request !== undefined && issue.pull_request !== null : true;
  return {
    kind: isPr ? "pull_request" : "issue",
    ...where,
    number: item.number,
    title: typeof item.title === "string" ? item.title : "",
    body: typeof item.body === "string" ? item.body : "",
  };
}

/** Keep the first `max` code points, so a surrogate pair is never split. */
export function truncateCodePoints(text: string, max: number): string {
  return Array.from(text).slice(0, max).join("");
}

export interface ResolvedTask {
  input: TaskInput;
  /** Where the text came from, for the log. */
  source: "inputs" | "event";
  /** Sentences for `core.warning` and the report's notes, e.g. that a long body was shortened. */
  warnings: string[];
}

function describe(item: EventItem): string {
  return `${item.kind === "issue" ? "issue" : "pull request"} #${item.number}`;
}

/**
 * Decide what to score. The `task` input wins; when it is empty, the event's issue or pull request
 * gives the title (and the body, unless `description` is set). Text from the event that is over the
 * request limits is shortened with a warning instead of failing the step: the workflow author cannot
 * shorten someone else's issue. Text passed as inputs was validated against the same limits already.
 */
export function resolveTask(
  inputs: { task: string; description: string },
  item: EventItem | undefined,
  eventName: string | undefined,
): ResolvedTask {
  const warnings: string[] = [];
  let task = inputs.task;
  let description = inputs.description;
  let source: ResolvedTask["source"] = "inputs";

  if (task.trim() === "") {
    if (!item) {
      throw new ActionError(
        "missing_task",
        `Nothing to score: pass the \`task\` input (and optionally \`description\`), or run the step on an ${SUPPORTED_EVENTS.join(", ")} event so the issue or pull request is scored${eventName ? ` (this run's event is \`${eventName}\`)` : ""}.`,
      );
    }
    source = "event";
    task = item.title;
    if (task.trim() === "") {
      throw new ActionError(
        "missing_task",
        `The title of ${describe(item)} is empty: pass the \`task\` input to say what to score.`,
      );
    }
    const titleLength = codePointLength(task);
    if (titleLength > TASK_MAX_CHARS) {
      task = truncateCodePoints(task, TASK_MAX_CHARS);
      warnings.push(
        `The title of ${describe(item)} is ${titleLength.toLocaleString("en-US")} characters; only the first ${TASK_MAX_CHARS} were scored.`,
      );
    }
    if (description === "") {
      description = item.body;
      const bodyLength = codePointLength(description);
      if (bodyLength > DESCRIPTION_MAX_CHARS) {
        description = truncateCodePoints(description, DESCRIPTION_MAX_CHARS);
        warnings.push(
          `The body of ${describe(item)} is ${bodyLength.toLocaleString("en-US")} characters; only the first ${DESCRIPTION_MAX_CHARS.toLocaleString("en-US")} were scored.`,
        );
      }
    }
  }

  // The core's request schema is the authority on what a valid task is.
  const parsed = ScoreRequestSchema.safeParse({ task, description });
  if (!parsed.success) {
    const reason = parsed.error.issues.map((i) => i.message).join(" ");
    throw new ActionError("invalid_input", `The task cannot be scored: ${reason}`);
  }
  return { input: parsed.data, source, warnings };
}
