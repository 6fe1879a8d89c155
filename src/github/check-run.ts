/**
 * `output: [check]`: a check run on a pull request's head commit with the score as its title and the report
 * as its summary. It never fails the pull request: `success` when the task meets the approval bar, `neutral`
 * when it does not (a failing gate is the Action's `fail-on-reject`, a deliberate choice in a workflow).
 */
import type { ScoreReport } from "../core/score-report.schema.js";
import type { GitHubRequest } from "./github-request.js";

export const CHECK_NAME = "task-scorer";
/** GitHub's limit for a check run's `output.summary`. */
export const CHECK_SUMMARY_MAX = 65_535;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function checkTitle(report: Pick<ScoreReport, "consensus">): string {
  const { avgScore, approved } = report.consensus;
  return `Task score ${fmt(avgScore)} / 10 · ${approved ? "meets" : "below"} the approval bar`;
}

/** At most CHECK_SUMMARY_MAX UTF-16 units, never splitting a surrogate pair, with a note when cut. */
export function clipSummary(markdown: string, max = CHECK_SUMMARY_MAX): string {
  if (markdown.length <= max) return markdown;
  const note = "\n\n_(shortened: GitHub keeps 65,535 characters of a check's summary)_";
  let cut = markdown.slice(0, max - note.length);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + note;
}

export interface CheckRunTarget {
  owner: string;
  repo: string;
  headSha: string;
}

export async function createScoreCheckRun(
  github: GitHubRequest,
  target: CheckRunTarget,
  report: Pick<ScoreReport, "consensus">,
  markdown: string,
  detailsUrl?: string,
): Promise<{ id: number | undefined; conclusion: "success" | "neutral" }> {
  const conclusion = report.consensus.approved ? "success" : "neutral";
  const id = await postCheckRun(
    github,
    target,
    conclusion,
    checkTitle(report),
    clipSummary(markdown),
    detailsUrl,
  );
  return { id, conclusion };
}

/** The one completed check run the App writes, from a report or copied from the previous head's. */
async function postCheckRun(
  github: GitHubRequest,
  target: CheckRunTarget,
  conclusion: string,
  title: string,
  summary: string,
  detailsUrl?: string | null,
): Promise<number | undefined> {
  const { data } = await github.request("POST /repos/{owner}/{repo}/check-runs", {
    owner: target.owner,
    repo: target.repo,
    name: CHECK_NAME,
    head_sha: target.headSha,
    status: "completed",
    conclusion,
    ...(detailsUrl ? { details_url: detailsUrl } : {}),
    output: { title, summary },
  });
  return (data as { id?: number }).id;
}
