/**
 * Step 5b, the reports of the issues a pull request closes: the issues of its own repository that its
 * description closes (GitHub's closing keywords, linked-issues.ts), looked up in the backlog, so the Product
 * Manager's sentence about the change says "closes #12 (scored 7.4, approved)". At most five issues, in one
 * statement. Another repository's issue is named only, and so is every issue when there is no backlog (storage
 * off), when the backlog has no report for it, or when the lookup fails: the report is never held up by it.
 */
import type { BacklogStore } from "../../backlog/backlog-store.js";
import {
  issueName,
  linkedIssues,
  type LinkedReport,
  type LinkedReports,
} from "../../core/change/linked-issues.js";
import { DESCRIPTION_MAX_CHARS } from "../../core/task-request.schema.js";
import { clip } from "../task-text.js";
import type { JobRun } from "./publish.js";

/** At most this many issues are looked up for one pull request. */
export const MAX_LINKED_LOOKUPS = 5;

/**
 * The numbers of the repository's own issues the description closes (the first five), each with the names the
 * description gives it: "#12", and "Owner/Repo#12" when it names its own repository in full (any case).
 */
export function ownIssues(description: string, repository: string): Map<number, string[]> {
  const own = new Map<number, string[]>();
  const here = repository.toLowerCase();
  for (const issue of linkedIssues(description)) {
    if (issue.repository !== undefined && issue.repository.toLowerCase() !== here) continue;
    const names = own.get(issue.number);
    if (names) names.push(issueName(issue));
    else if (own.size < MAX_LINKED_LOOKUPS) own.set(issue.number, [issueName(issue)]);
  }
  return own;
}

export async function readLinkedReports(
  run: Pick<JobRun, "subject" | "repository" | "log">,
  store: Pick<BacklogStore, "reports"> | undefined,
): Promise<LinkedReports | undefined> {
  if (!store || !run.subject.isPullRequest) return undefined;
  // The description as it is scored (score.ts clips it the same way): an issue past the clip is not named.
  const own = ownIssues(clip(run.subject.body, DESCRIPTION_MAX_CHARS), run.repository);
  if (own.size === 0) return undefined;
  try {
    const found = await store.reports(run.repository, [...own.keys()]);
    const linked = new Map<string, LinkedReport>();
    for (const [number, names] of own) {
      const report = found.get(number);
      if (report) for (const name of names) linked.set(name, report);
    }
    return linked;
  } catch (error) {
    run.log.warn(
      { message: error instanceof Error ? error.message : String(error) },
      "linked issues' reports could not be read: the issues are named only",
    );
    return undefined;
  }
}
