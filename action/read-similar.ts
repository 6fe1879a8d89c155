/**
 * Similar issues for the Action (issue 32, Deliver 5), without a database: the repository's open issues listed
 * through the API with the workflow's token (at most three pages of 100, newest first; pull requests left out;
 * needs `permissions: issues: read`), indexed in memory with the core's `SimilarIndex` (the App's method), and
 * the event's issue compared with the earlier ones. What it finds is the comment's "Possibly the same as" or
 * "Related" line (render-comment.ts) and the step's `similar` output. The step never fails for it: where the
 * token cannot list the issues, or GitHub fails, the report goes without the line and the log says why.
 */
import type { SimilarMention } from "../src/core/render-comment.js";
import { hitFields, SimilarIndex } from "../src/core/similar/similar-index.js";
import { httpStatus, type GitHubRequest } from "../src/github/github-request.js";
import { isRefusal } from "../src/github/publish-report.js";
import type { EventItem } from "./read-event.js";

/** At most this many pages of 100 open issues (300, the newest): one run costs at most three requests. */
export const SIMILAR_PAGES = 3;
const PER_PAGE = 100;
/** As many as the App's comment reads: a duplicate, or up to three related issues. */
const SIMILAR_LIMIT = 3;

export interface SimilarDeps {
  core: { info: (message: string) => void; warning: (message: string) => void };
  getOctokit: (token: string) => GitHubRequest;
}

/** One earlier issue like the event's, as the `similar` output gives it. */
export interface SimilarOutput {
  number: number;
  similarity: number;
  duplicate: boolean;
}

interface ListedIssue {
  number: number;
  title: string;
  body: string;
}

/** The repository's open issues, newest first, pull requests left out: at most SIMILAR_PAGES pages. */
async function listOpenIssues(
  github: GitHubRequest,
  owner: string,
  repo: string,
): Promise<{ issues: ListedIssue[]; pages: number }> {
  const issues: ListedIssue[] = [];
  let pages = 0;
  for (let page = 1; page <= SIMILAR_PAGES; page++) {
    const { data } = await github.request("GET /repos/{owner}/{repo}/issues", {
      owner,
      repo,
      state: "open",
      sort: "created",
      direction: "desc",
      per_page: PER_PAGE,
      page,
    });
    pages++;
    const items = Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
    for (const item of items) {
      if (item.pull_request !== undefined && item.pull_request !== null) continue;
      if (typeof item.number !== "number" || typeof item.title !== "string") continue;
      issues.push({
        number: item.number,
        title: item.title,
        body: typeof item.body === "string" ? item.body : "",
      });
    }
    if (items.length < PER_PAGE) break;
  }
  return { issues, pages };
}

/**
 * The earlier open issues most like the event's issue, best first (at most three), or undefined when none were
 * compared (not an issue, no token, the listing failed). The issue's own text is indexed with the others, as
 * in the App's index, so that the words' frequencies are the same; it is never among the results, nor is any
 * issue numbered after it.
 */
export async function readSimilarIssues(
  deps: SimilarDeps,
  token: string | undefined,
  item: EventItem | undefined,
): Promise<SimilarMention[] | undefined> {
  if (item?.kind !== "issue") return undefined;
  const where = `issue #${item.number}`;
  if (!token) {
    deps.core.info(
      `No \`github-token\`: ${where} was not compared with the repository's open issues; the report goes without the similar-issues line.`,
    );
    return undefined;
  }
  let listed: { issues: ListedIssue[]; pages: number };
  try {
    listed = await listOpenIssues(deps.getOctokit(token), item.owner, item.repo);
  } catch (error) {
    const status = httpStatus(error);
    deps.core.warning(
      // A refusal (401/403/404/410, not a rate limit's 403) is the workflow's permissions to fix.
      isRefusal(error)
        ? `The token cannot list the repository's issues (GitHub answered ${status}): add \`issues: read\` to the workflow's \`permissions\`; the report goes without the similar-issues line.`
        : `The repository's open issues could not be listed (${status === undefined ? "GitHub could not be reached" : `GitHub answered ${status}`}); the report goes without the similar-issues line.`,
    );
    return undefined;
  }
  const index = new SimilarIndex();
  const titles = new Map<number, string>();
  for (const issue of listed.issues) {
    if (issue.number === item.number) continue;
    index.set(issue.number, index.features(issue.title, issue.body));
    titles.set(issue.number, issue.title);
  }
  const features = index.features(item.title, item.body);
  index.set(item.number, features);
  const hits = index.query(features, SIMILAR_LIMIT, (key) => key < item.number, item.number);
  deps.core.info(
    `Compared ${where} with ${titles.size.toLocaleString("en")} open issue${titles.size === 1 ? "" : "s"} (${listed.pages} page${listed.pages === 1 ? "" : "s"}): ${
      hits.length
        ? hits
            .map((h) => `#${h.key} ${h.score.toFixed(2)}${h.duplicate ? " (possibly the same)" : ""}`)
            .join(", ")
        : "none alike"
    }.`,
  );
  return hits.map((h) => {
    const { number, similarity, duplicate } = hitFields(h);
    return {
      number,
      title: titles.get(h.key) ?? "",
      state: "open",
      stateReason: null,
      similarity,
      duplicate,
    };
  });
}

/** The `similar` output: a JSON array of {number, similarity, duplicate}, best first. */
export function similarOutput(similar: readonly SimilarMention[]): string {
  return JSON.stringify(
    similar.map((s): SimilarOutput => ({
      number: s.number,
      similarity: s.similarity,
      duplicate: s.duplicate,
    })),
  );
}
