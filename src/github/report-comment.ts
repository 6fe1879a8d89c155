import { REPORT_MARKER } from "../core/render-comment.js";

/**
 * The slice of Octokit this module needs. Probot's `context.octokit` and `@actions/github`'s
 * `getOctokit()` both satisfy it, so the App and the Action share one implementation.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- Octokit's route types differ between Probot and @actions/github. */
export interface IssueCommentsOctokit {
  rest: {
    issues: {
      listComments: (params: {
        owner: string;
        repo: string;
        issue_number: number;
        per_page: number;
        page: number;
      }) => Promise<{ data: any[] }>;
      createComment: (params: {
        owner: string;
        repo: string;
        issue_number: number;
        body: string;
      }) => Promise<{ data: { id: number; html_url?: string } }>;
      updateComment: (params: {
        owner: string;
        repo: string;
        comment_id: number;
        body: string;
      }) => Promise<{ data: { id: number; html_url?: string } }>;
      deleteComment: (params: { owner: string; repo: string; comment_id: number }) => Promise<unknown>;
    };
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

// A type alias, not an interface: Octokit's parameter types need the implicit index signature.
export type IssueRef = {
  owner: string;
  repo: string;
  issue_number: number;
};

export interface UpsertResult {
  action: "created" | "updated" | "unchanged";
  commentId: number;
  url?: string;
  /** Extra report comments found (from a race or an older version) and removed. */
  removedDuplicates: number;
}

interface Comment {
  id: number;
  body?: string | null;
  created_at?: string;
}

/** Pages of 100 comments read at most: the report is written early in an issue's life, within its first 3,000. */
export const MAX_COMMENT_PAGES = 30;

/**
 * The issue's report comments, oldest first. Pages are asked for by number from the API the client was made for,
 * not by following the `Link` header (which Octokit's paginate follows to any host, with the token).
 */
async function findReports(octokit: IssueCommentsOctokit, ref: IssueRef): Promise<Comment[]> {
  const comments: Comment[] = [];
  for (let page = 1; page <= MAX_COMMENT_PAGES; page++) {
    const { data } = await octokit.rest.issues.listComments({ ...ref, per_page: 100, page });
    comments.push(...(data as Comment[]));
    if (data.length < 100) break;
  }
  return comments
    .filter((c) => typeof c.body === "string" && c.body.includes(REPORT_MARKER))
    .sort((a, b) => a.id - b.id);
}

/**
 * Keep exactly one report comment: edit the oldest one carrying the marker, or create it. When two
 * writers raced and both created one, the newer copies are deleted, so the issue converges to one.
 */
export async function upsertReportComment(
  octokit: IssueCommentsOctokit,
  ref: IssueRef,
  body: string,
): Promise<UpsertResult> {
  if (!body.includes(REPORT_MARKER)) throw new Error("report body must carry the report marker");
  const { owner, repo } = ref;
  let existing = await findReports(octokit, ref);
  let result: UpsertResult;
  const first = existing[0];
  if (first) {
    if (first.body === body) {
      result = { action: "unchanged", commentId: first.id, removedDuplicates: 0 };
    } else {
      const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: first.id, body });
      result = {
        action: "updated",
        commentId: data.id,
        removedDuplicates: 0,
        ...(data.html_url ? { url: data.html_url } : {}),
      };
    }
  } else {
    const { data } = await octokit.rest.issues.createComment({ ...ref, body });
    result = {
      action: "created",
      commentId: data.id,
      removedDuplicates: 0,
      ...(data.html_url ? { url: data.html_url } : {}),
    };
    // Another writer may have created one at the same moment: look again and keep only the oldest.
    existing = await findReports(octokit, ref);
    const keep = existing[0];
    if (keep && keep.id !== data.id) {
      result = { action: "updated", commentId: keep.id, removedDuplicates: 0 };
      if (keep.body !== body)
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: keep.id, body });
    }
  }
  for (const dup of existing.slice(1)) {
    if (dup.id === result.commentId) continue;
    await octokit.rest.issues.deleteComment({ owner, repo, comment_id: dup.id });
    result.removedDuplicates++;
  }
  return result;
}
