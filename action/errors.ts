import { isTaskScorerError } from "../src/core/errors.js";
import { httpStatus } from "../src/github/github-request.js";

export type ActionErrorCode =
  | "missing_task"
  | "invalid_input"
  | "missing_token"
  | "permission_denied"
  | "github_api_failed"
  | "not_approved";

/** A failure the Action reports itself; its message is the sentence shown by `core.setFailed`. */
export class ActionError extends Error {
  readonly code: ActionErrorCode;

  constructor(code: ActionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ActionError";
    this.code = code;
  }
}

/**
 * Map an error from a GitHub API call (Octokit's RequestError carries `status`) to a sentence a
 * person can act on. `what` names the write, e.g. "write comments".
 */
export function githubError(
  error: unknown,
  what: "write comments" | "set labels" | "create check runs",
): ActionError {
  const status = httpStatus(error);
  if (status === 403 && what === "create check runs") {
    return new ActionError(
      "permission_denied",
      "The token cannot create check runs: add `permissions: checks: write` to the workflow (or leave `check` out of `output`).",
      { cause: error },
    );
  }
  if (status === 403) {
    return new ActionError(
      "permission_denied",
      what === "write comments"
        ? "The token cannot write comments: add `permissions: issues: write` (and `pull-requests: write` for PRs) to the workflow."
        : "The token cannot set labels: add `permissions: issues: write` (and `pull-requests: write` for PRs) to the workflow.",
      { cause: error },
    );
  }
  if (status === 401) {
    return new ActionError(
      "permission_denied",
      "GitHub refused the token (401 Bad credentials): leave `github-token` unset to use the workflow's token, or pass a valid one.",
      { cause: error },
    );
  }
  const reason = status === undefined ? "could not be reached" : `answered ${status}`;
  return new ActionError(
    "github_api_failed",
    `GitHub ${reason} when trying to ${what} on the issue or pull request; run the job again, or set \`comment: false\` and leave the label inputs empty to skip writing to GitHub.`,
    { cause: error },
  );
}

/** Hints added to the core's scorer errors, which are written for any adapter. */
const SCORER_HINTS: Record<string, string> = {
  scorer_failed: "Try another `model`, or use `scorer: offline`.",
  scorer_unavailable: "Check `openai-api-key`, `openai-base-url` and `model`, or use `scorer: offline`.",
  scorer_timeout: "Run the job again, try a faster `model`, or use `scorer: offline`.",
  invalid_config: "Check the scorer inputs (`scorer`, `openai-api-key`, `openai-base-url`, `model`).",
};

/** The core's messages name the server's environment variables; in the Action they are inputs. */
const ENV_TO_INPUT: [RegExp, string][] = [
  [/\bSCORER=(\w+)/g, "`scorer: $1`"],
  [/\bOPENAI_API_KEY=(\w+)/g, "`openai-api-key: $1`"],
  [/\bOPENAI_API_KEY\b/g, "`openai-api-key`"],
  [/\bOPENAI_BASE_URL\b/g, "`openai-base-url`"],
  [/\bOPENAI_MODEL\b/g, "`model`"],
];

function inActionTerms(message: string): string {
  return ENV_TO_INPUT.reduce((text, [pattern, input]) => text.replace(pattern, input), message);
}

/**
 * The one place every failure becomes the sentence passed to `core.setFailed`. Typed errors keep
 * their message (written for a person); anything else is reported without internals.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof ActionError) return error.message;
  if (isTaskScorerError(error)) {
    const hint = SCORER_HINTS[error.code];
    const message = inActionTerms(error.message);
    return hint ? `${message} ${hint}` : message;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `task-scorer failed unexpectedly (${message}). Run the job again; if it keeps failing, open an issue with this message.`;
}
