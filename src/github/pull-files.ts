/**
 * A pull request's change as GitHub lists it: `GET /repos/{owner}/{repo}/pulls/{n}/files`, for the App and the
 * Action alike. Pages are asked for by number (100 a page) from the API the client was made for, never by
 * following a `Link` header (which could send the token to another host); the client's own pacing (Probot's
 * throttling and retries, the Action's Octokit) applies to each page. Each page is read into ChangedFile as it
 * arrives, so no patch text outlives its page.
 */
import { fromGitHub, type GitHubPullFile } from "../core/change/read-change.js";
import type { ChangedFile } from "../core/change/parse-diff.js";
import type { ChangeSource } from "../core/change/pull-change.js";
import type { GitHubRequest } from "./github-request.js";
import type { IssueRef } from "./report-comment.js";

export const PULL_FILES_PER_PAGE = 100;
/** GitHub lists at most 3,000 files of a pull request: 30 pages of 100. */
export const PULL_FILES_MAX = 3000;

export interface ListPullFilesOptions {
  /** The pull request's `changed_files` (from the event), when known: more than were listed means cut. */
  changedFiles?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** An answer that is not GitHub's file list (a stand-in, a proxy's page): the listing is not trusted. */
export class PullFilesUnreadable extends Error {
  constructor(page: number) {
    super(`GitHub's file list, page ${page}, was not a list of files`);
    this.name = "PullFilesUnreadable";
  }
}

function isPullFile(value: unknown): value is GitHubPullFile {
  const f = value as Partial<GitHubPullFile> | null;
  return (
    typeof f === "object" &&
    f !== null &&
    typeof f.filename === "string" &&
    typeof f.status === "string" &&
    Number.isInteger(f.additions) &&
    Number.isInteger(f.deletions) &&
    (f.patch === undefined || f.patch === null || typeof f.patch === "string")
  );
}

/**
 * Every file GitHub lists for the pull request, up to its 3,000. `truncated` is true when the pull request has
 * more files than were listed: its `changed_files` says so when given; without it, a full last page at the
 * limit is taken as cut. GitHub's errors are thrown as they are (each caller decides what a failure means).
 */
export async function listPullFiles(
  github: GitHubRequest,
  ref: IssueRef,
  options: ListPullFilesOptions = {},
): Promise<Extract<ChangeSource, { kind: "files" }> & { pages: number }> {
  const files: ChangedFile[] = [];
  const maxPages = PULL_FILES_MAX / PULL_FILES_PER_PAGE;
  let pages = 0;
  let lastFull = false;
  for (let page = 1; page <= maxPages; page++) {
    options.signal?.throwIfAborted();
    const { data } = await github.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.issue_number,
      per_page: PULL_FILES_PER_PAGE,
      page,
    });
    pages++;
    if (!Array.isArray(data)) throw new PullFilesUnreadable(page);
    for (const item of data) {
      if (!isPullFile(item)) throw new PullFilesUnreadable(page);
      files.push(fromGitHub({ ...item, patch: item.patch ?? undefined }));
    }
    lastFull = data.length >= PULL_FILES_PER_PAGE;
    if (!lastFull) break;
    // The number GitHub gave for the pull request is reached: no need to ask for an empty page.
    if (options.changedFiles !== undefined && files.length >= options.changedFiles) break;
  }
  const truncated =
    options.changedFiles !== undefined
      ? options.changedFiles > files.length
      : lastFull && files.length >= PULL_FILES_MAX;
  return { kind: "files", files, truncated, pages };
}
