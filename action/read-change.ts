/**
 * A pull request's change, for the Action: its files listed with the workflow's token (src/github/pull-files.ts,
 * which needs `permissions: pull-requests: read`), the same listing as the App's. Where the token cannot list
 * them (403, 404) or GitHub fails, the pull request's own totals from the event (`additions`, `deletions`,
 * `changed_files`) stand in: a change reading with those counts only (`totalsOnly`), which says nothing of tests,
 * docs, generated files or dependencies. The step never fails for it; the log says which was used and why.
 */
import type { ChangeSource } from "../src/core/change/pull-change.js";
import type { GitHubRequest } from "../src/github/github-request.js";
import { httpStatus } from "../src/github/github-request.js";
import { isRefusal } from "../src/github/publish-report.js";
import { listPullFiles } from "../src/github/pull-files.js";
import type { EventItem } from "./read-event.js";

export interface ChangeDeps {
  core: { info: (message: string) => void; warning: (message: string) => void };
  getOctokit: (token: string) => GitHubRequest;
}

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;

/** The event's own totals of its pull request, when it carries all three (`pull_request*` events do). */
export function totalsOf(
  payload: Record<string, unknown>,
): Extract<ChangeSource, { kind: "totals" }> | undefined {
  const pr = payload.pull_request as Record<string, unknown> | undefined;
  const additions = count(pr?.additions);
  const deletions = count(pr?.deletions);
  const files = count(pr?.changed_files);
  if (additions === undefined || deletions === undefined || files === undefined) return undefined;
  return { kind: "totals", additions, deletions, files };
}

export async function readPullRequestChange(
  deps: ChangeDeps,
  token: string | undefined,
  item: EventItem | undefined,
  payload: Record<string, unknown>,
): Promise<ChangeSource | undefined> {
  if (item?.kind !== "pull_request") return undefined;
  const where = `pull request #${item.number}`;
  const totals = totalsOf(payload);
  const instead = totals
    ? "the report states the pull request's totals only (lines added and removed, files changed)"
    : "the report is made without the change";
  if (!token) {
    deps.core.info(`No \`github-token\`: the files of ${where} were not listed; ${instead}.`);
    return totals;
  }
  try {
    const listed = await listPullFiles(
      deps.getOctokit(token),
      { owner: item.owner, repo: item.repo, issue_number: item.number },
      { changedFiles: totals?.files },
    );
    deps.core.info(
      `Listed ${listed.files.length.toLocaleString("en")} files of ${where} (${listed.pages} page${listed.pages === 1 ? "" : "s"})${listed.truncated ? "; GitHub lists at most 3,000" : ""}.`,
    );
    return { kind: "files", files: listed.files, truncated: listed.truncated };
  } catch (error) {
    const status = httpStatus(error);
    deps.core.warning(
      // A refusal (not a rate limit's 403) is the workflow's permissions to fix, as for the similar issues' listing.
      isRefusal(error)
        ? `The token cannot list the files of ${where} (GitHub answered ${status}): add \`pull-requests: read\` to the workflow's \`permissions\`; ${instead}.`
        : `The files of ${where} could not be listed (${status === undefined ? "GitHub could not be reached" : `GitHub answered ${status}`}); ${instead}.`,
    );
    return totals;
  }
}
