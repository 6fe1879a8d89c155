/**
 * Step 5a, read the change: a pull request's files as GitHub lists them (src/github/pull-files.ts), so its report
 * states the change (`reading.change`, the comment's Change line). Read on every scoring of a pull request, new
 * commits included: the change is never cached, only the text's verdicts are. A listing that fails (no
 * permission, GitHub unreachable, an answer that is not a file list) costs the report nothing: it is scored
 * without the change, and says nothing about one.
 */
import type { ChangeSource } from "../../core/change/pull-change.js";
import { httpStatus, type GitHubRequest } from "../../github/github-request.js";
import { listPullFiles } from "../../github/pull-files.js";
import type { JobRun } from "./publish.js";

export async function readPullChange(run: JobRun, signal?: AbortSignal): Promise<ChangeSource | undefined> {
  if (!run.subject.isPullRequest) return undefined;
  try {
    // Probot's Octokit: its throttling and retries pace these requests like every other of the App's.
    const github = run.context.octokit as unknown as GitHubRequest;
    const listed = await listPullFiles(github, run.subject.ref, {
      changedFiles: run.item?.changedFiles,
      signal,
    });
    run.log.info(
      { files: listed.files.length, pages: listed.pages, truncated: listed.truncated },
      "pull request files listed",
    );
    return { kind: "files", files: listed.files, truncated: listed.truncated };
  } catch (error) {
    run.log.warn(
      { status: httpStatus(error), message: error instanceof Error ? error.message : String(error) },
      "pull request files could not be listed: scored without the change",
    );
    return undefined;
  }
}
