/**
 * The App's side of the backlog: how the backfill reaches GitHub (installation clients, the repository's
 * own file) and scores an issue, and how webhook events keep the stored backlog current.
 */
import { Context, type Probot, type ProbotOctokit } from "probot";
import type { OutputProblems } from "./output-problems.js";
import type { ApprovalPolicy } from "../core/approval.js";
import type { Scorer } from "../core/scorer.js";
import type { BackfillDeps } from "../backlog/backfill-runner.js";
import type { BacklogGitHub, ListedIssue } from "../backlog/paced-github.js";
import type { BacklogStore } from "../backlog/backlog-store.js";
import type { RepoConfig } from "../repo-config/repo-config.schema.js";
import { resolveOutputs, type ResolvedOutputs } from "../repo-config/resolve-outputs.js";
import { apiBaseUrl, type GitHubRequest } from "../github/github-request.js";
import type { LearnedLabelNames } from "../github/kind-labels.js";
import { eventRepository } from "./event.js";
import { saveToBacklog } from "./job/persist.js";
import { scoreText } from "./job/score.js";
import { writeOutputs } from "./outputs.js";
import { loadConfig } from "./repo-config-loader.js";
import { hashText } from "./task-text.js";
import { labelsOf, skippedBy } from "./skip-rules.js";
import type { CalibrationStore } from "../learning/calibration-store.js";

export interface BacklogAppDeps {
  probot: Probot;
  store: BacklogStore;
  scorer: Scorer;
  policy: ApprovalPolicy;
  clock?: (() => Date) | undefined;
  /** The repository's own kind label names, once learned (`output: [labels]`); optional. */
  learnedLabelNames?: LearnedLabelNames | undefined;
  /** What was learned from each repository's closed issues (issue 18, src/learning); optional. */
  calibrations?: CalibrationStore | undefined;
  /** Problems the outputs met (see AppDeps.outputProblems). */
  outputProblems?: OutputProblems | undefined;
}

/** A Probot context for one repository outside any webhook, so the backfill reads `.github/task-scorer.yml` as jobs do. */
function repositoryContext(octokit: ProbotOctokit, owner: string, repo: string, probot: Probot): Context {
  const event = {
    id: `backfill-${owner}-${repo}`,
    name: "issues",
    payload: { repository: { owner: { login: owner }, name: repo } },
  };
  return new Context(event as never, octokit, probot.log.child({ repository: `${owner}/${repo}` }));
}

/** The backfill's dependencies, from the App's Probot and the service's scorer. */
export function appBackfillDeps(
  deps: BacklogAppDeps,
): Pick<BackfillDeps, "github" | "settings" | "score" | "contentHash"> {
  const { probot, store } = deps;
  // Each repository's file, read once per run: its thresholds, and what it asks the backfill to write (never a
  // comment, never a check run).
  const writes = new Map<
    string,
    { config: RepoConfig; outputs: ResolvedOutputs; apiBaseUrl: string | undefined }
  >();
  return {
    github: async (installationId) => (await probot.auth(installationId)) as unknown as BacklogGitHub,
    settings: async (github, owner, repo) => {
      const context = repositoryContext(github as unknown as ProbotOctokit, owner, repo, probot);
      const { config } = await loadConfig(context, context.log);
      writes.set(`${owner}/${repo}`.toLowerCase(), {
        config,
        outputs: { ...resolveOutputs(config), comment: false, check: false },
        apiBaseUrl: apiBaseUrl(github),
      });
      return {
        enabled: config.enabled,
        budget: config["backlog-budget"],
        skips: (issue: ListedIssue) =>
          skippedBy(config, {
            ref: { owner, repo, issue_number: issue.number },
            title: issue.title,
            body: issue.body ?? "",
            isPullRequest: false,
            draft: false,
            labels: labelsOf(issue),
          }) !== undefined,
      };
    },
    // The job's own steps: score, publish (refusals become problems for maintainers; rate-limit pauses are
    // thrown and stop the run), persist.
    score: async (repository, issue, contentHash, github) => {
      const asked = writes.get(repository.toLowerCase());
      const { report } = await scoreText(
        deps,
        asked?.config,
        repository,
        { title: issue.title, body: issue.body ?? "" },
        { timeoutMs: 60_000 },
      );
      if (asked && github) {
        const [owner, repo] = repository.split("/") as [string, string];
        await writeOutputs(
          github as GitHubRequest,
          asked.outputs,
          asked.config,
          {
            repository,
            ref: { owner, repo, issue_number: issue.number },
            isPullRequest: false,
            nodeId: issue.node_id,
            labels: labelsOf(issue),
          },
          report,
          {
            log: probot.log.child({ repository, issue: issue.number }),
            apiBaseUrl: asked.apiBaseUrl,
            learnedLabelNames: deps.learnedLabelNames,
            problems: deps.outputProblems,
          },
        );
      }
      await saveToBacklog(
        store,
        repository,
        {
          number: issue.number,
          title: issue.title,
          url: issue.html_url,
          createdAt: issue.created_at,
          updatedAt: issue.updated_at,
        },
        report,
        contentHash,
      );
      return report;
    },
    contentHash: hashText,
  };
}

/**
 * Every event that carries a repository keeps the backlog's record of it current (issue 33): made private,
 * its board needs sign-in from this event on; made public, it is public again; renamed or transferred, its
 * backlog follows it (by GitHub's id, or the former name the event gives); deleted, it leaves the backlog.
 */
export async function followEventRepository(context: Context, store: BacklogStore): Promise<void> {
  const payload = eventRepository(context);
  const repository = payload.repository;
  if (!repository?.full_name) return;
  const id = typeof repository.id === "number" ? repository.id : undefined;
  if (context.name === "repository" && payload.action === "deleted")
    return store.forgetRepository(repository.full_name, id);
  const [owner, name] = repository.full_name.split("/") as [string, string];
  const formerOwner =
    payload.changes?.owner?.from?.user?.login ?? payload.changes?.owner?.from?.organization?.login;
  const formerName = payload.changes?.repository?.name?.from;
  await store.followRepository(repository.full_name, {
    id,
    private: typeof repository.private === "boolean" ? repository.private : undefined,
    formerName:
      context.name === "repository" && (formerOwner || formerName)
        ? `${formerOwner ?? owner}/${formerName ?? name}`
        : undefined,
  });
}
