import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { ScoreReport } from "../core/score-report.schema.js";
import { KIND_MODEL } from "../core/offline/kind-model.data.js";
import { kindModelId } from "../core/offline/kind-model.js";
import { apiBaseUrl } from "../github/github-request.js";
import type { PageMemo, RepositoryRow } from "./backfill-queue-store.js";
import { BacklogStore } from "./backlog-store.js";
import {
  DEFAULT_API_BASE_URL,
  GiveUp,
  listPage,
  MAX_LIST_PAGES,
  pacedGitHub,
  PageTrail,
  Pause,
  type BacklogGitHub,
  type ListedIssue,
} from "./paced-github.js";

/** What a repository's own file says about its backfill. */
export interface BacklogRepoSettings {
  /** `enabled: false`: no backfill. */
  enabled: boolean;
  /** Reports a model may make for the backfill per installation and UTC day. */
  budget: number;
  /** The repository's skip rules (labels, title patterns): a skipped issue stays off the board. */
  skips(issue: ListedIssue): boolean;
}

export interface BackfillDeps {
  store: BacklogStore;
  /** An installation's client; the App's own (JWT) client when `installationId` is undefined. */
  github(installationId: number | undefined): Promise<BacklogGitHub>;
  settings(github: BacklogGitHub, owner: string, repo: string): Promise<BacklogRepoSettings>;
  /**
   * Score one issue and store its report. Never a comment; the repository's `output` labels and board are
   * written through `github`, whose every call keeps to GitHub's limits like the listing's.
   */
  score(
    repository: string,
    issue: ListedIssue,
    contentHash: string,
    github: BacklogGitHub,
  ): Promise<ScoreReport>;
  contentHash(title: string, body: string): string;
  /** Whether a report costs a model call (the daily budget applies); the offline judge costs microseconds. */
  usesModel: boolean;
  logger: Logger;
  clock?: () => Date;
  /** How long a claimed repository stays this instance's without a sign of life. */
  leaseMs?: number;
  /** How often to look for work queued elsewhere (by another instance or the admin CLI). */
  pollMs?: number;
  /** Keep this many requests of GitHub's hourly allowance for the App's own work (comments on new issues). */
  rateLimitReserve?: number;
  /**
   * Learn from the repository's closed issues (issue 18), when a run was asked to learn first (install,
   * `/score learn`, the admin CLI, the weekly re-learning). Absent: no learning.
   */
  /** Learns and stores; `changed` false when nothing reports use moved (then nothing is scored again). */
  learn?(repository: string, closedIssues: ListedIssue[]): Promise<{ changed: boolean }>;
  /**
   * Re-learn each backfilled repository when its last learning is older than this (weekly), or at the first
   * check when its kind adjustment was fitted against an earlier release's kind model.
   */
  relearnMs?: number;
  /**
   * The REST API's base URL: a listing's `Link` is followed only on its origin. The installation client's own
   * (Octokit's `baseUrl`) when absent.
   */
  apiBaseUrl?: string;
  /** At most this many pages of open issues in one run (MAX_LIST_PAGES, 1,000, when absent). */
  maxPages?: number;
}

export const BACKLOG_PAGE_SIZE = 100;
export const DEFAULT_BACKLOG_BUDGET = 200;
/** Learning reads at most the last 1,000 closed issues (pull requests left out), in at most 30 pages. */
export const LEARN_MAX_ISSUES = 1000;
const LEARN_MAX_PAGES = 30;
const RELEARN_CHECK_MS = 3_600_000;

/** The pages a run has listed so far, as stored with its progress. */
function listedPages(json: string | null | undefined): string[] {
  try {
    const pages = JSON.parse(json || "[]") as unknown;
    return Array.isArray(pages) ? pages.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Silent backfill: lists a repository's open issues page by page, scores each new or changed one and stores
 * the report, writing nothing on GitHub. Progress (the next page, ETags, counts) is stored after every page,
 * under a lease, so a killed instance's repository is resumed by another and two never run it at once.
 */
export class BackfillRunner {
  readonly instance = randomUUID();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly reserve: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  private again = false;
  private relearnCheckedAt = 0;

  constructor(readonly deps: BackfillDeps) {
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.pollMs = deps.pollMs ?? 10_000;
    this.reserve = deps.rateLimitReserve ?? 500;
  }

  private now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /** `github` keeping to GitHub's limits, with this runner's reserve (see paced-github.ts). */
  private paced(github: BacklogGitHub): BacklogGitHub {
    return pacedGitHub(github, { reserve: this.reserve, now: () => this.now() });
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Look for work now (a backfill was just asked for on this instance). */
  wake(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, "backfill: unexpected failure"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Finish the issue in hand, then hand the repository back for another instance (or the next start). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** For tests and the admin CLI: run until nothing is claimable. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    const { learn, relearnMs } = this.deps;
    if (learn && relearnMs && this.now().getTime() - this.relearnCheckedAt >= RELEARN_CHECK_MS) {
      this.relearnCheckedAt = this.now().getTime();
      const queued = await this.deps.store.requestStaleLearning(relearnMs, kindModelId(KIND_MODEL));
      if (queued > 0) this.deps.logger.info({ repositories: queued }, "learning: weekly re-learning queued");
    }
    for (;;) {
      if (this.stopping) return;
      const row = await this.deps.store.claim(this.instance, this.leaseMs);
      if (!row) return;
      await this.runRepository(row);
    }
  }

  private async runRepository(row: RepositoryRow): Promise<void> {
    const { store, logger } = this.deps;
    const name = row.display_name;
    const [owner, repo] = name.split("/") as [string, string];
    const log = logger.child({ repository: name });
    try {
      let installationId = row.installation_id === null ? undefined : Number(row.installation_id);
      if (installationId === undefined) installationId = await this.findInstallation(owner, repo);
      const github = await this.deps.github(installationId);
      // Only pages on the API's own origin, each once, at most maxPages (see PageTrail in paced-github.ts).
      const base = this.deps.apiBaseUrl ?? apiBaseUrl(github) ?? DEFAULT_API_BASE_URL;
      const trail = new PageTrail(
        base,
        this.deps.maxPages ?? MAX_LIST_PAGES,
        row.next_url === null ? [] : listedPages(row.listed_pages),
      );
      // Every call of this run, reads and writes alike, keeps to GitHub's limits (see paced-github.ts).
      const paced = this.paced(github);
      const settings = await this.deps.settings(github, owner, repo);
      if (!settings.enabled)
        throw new GiveUp(`the App is turned off in ${name}'s .github/task-scorer.yml (enabled: false)`);
      let relisted = false;
      let total = row.total;
      let url = row.next_url;
      if (url === null) {
        // A fresh run: what GitHub says of the repository (private or public; its open count, which
        // includes pull requests, stands for the total until the last page gives the real one).
        const { data } = await paced.request("GET /repos/{owner}/{repo}", { owner, repo });
        const info = data as { private?: boolean; open_issues_count?: number; full_name?: string };
        await store.noteRepository(info.full_name ?? name, {
          installationId,
          ...(info.private === undefined ? {} : { private: info.private }),
        });
        total = info.open_issues_count ?? 0;
        // Asked to learn first (issue 18): from the closed issues, then every open issue is scored again.
        if (row.learn_requested && this.deps.learn) {
          await this.learnFrom(paced, base, owner, repo, name, log);
          relisted = true;
        }
        url = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues?state=open&per_page=${BACKLOG_PAGE_SIZE}`;
      }
      // After learning every page is fetched again (no ETag): each open issue is scored with what was learned.
      const etags = (relisted ? {} : JSON.parse(row.etags || "{}")) as Record<string, PageMemo>;
      let done = row.done;
      log.info({ from: url, done }, "backfill: running");
      while (url !== null) {
        if (this.stopping) throw new Pause(undefined, "instance stopping");
        const page = await listPage(paced, trail.follow(url), etags[url]);
        const issues = page.issues;
        if (issues) await this.scoreAll(name, installationId, settings, issues, paced);
        else await store.markSeen(name, page.numbers);
        etags[url] = {
          etag: page.etag ?? "",
          next: page.next,
          count: page.numbers.length,
          numbers: page.numbers,
        };
        done += page.numbers.length;
        url = page.next;
        if (
          !(await store.advance(name, this.instance, this.leaseMs, {
            nextUrl: url,
            done,
            total: Math.max(total, done),
            etags,
            listed: trail.listed,
          }))
        )
          return log.warn("backfill: lease lost to another instance; it carries on");
        // Repositories take turns: with another one waiting, this one goes to the back of the queue after each
        // page and carries on from its cursor at its next turn (a 1-issue repository waits a page, not a backlog).
        if (url !== null && (await store.othersWaiting(name))) {
          await store.yieldTurn(name, this.instance);
          return log.info({ done }, "backfill: another repository's turn; this one carries on after it");
        }
      }
      await store.finish(name, this.instance, done);
      log.info({ issues: done }, "backfill: done");
    } catch (error) {
      if (error instanceof Pause) {
        await store.pause(name, this.instance, error.until, error.message);
        log.info({ until: error.until?.toISOString(), reason: error.message }, "backfill: paused");
      } else if (error instanceof GiveUp) {
        await store.fail(name, this.instance, error.message);
        log.warn({ reason: error.message }, "backfill: stopped");
      } else {
        // Anything else (GitHub down, a storage hiccup): try again in a minute, from the stored cursor.
        const message = error instanceof Error ? error.message : String(error);
        await store
          .pause(name, this.instance, new Date(this.now().getTime() + 60_000), message)
          .catch(() => undefined);
        log.warn({ err: error }, "backfill: failed; retrying in a minute from where it stopped");
      }
    }
  }

  /**
   * Learning (issue 18): the repository's closed issues, newest first (at most the last 1,000, pull requests
   * left out), through the same calls as the backfill (its rate-limit pauses, under its lease); then the
   * stored reports' hashes are forgotten, so the listing that follows re-scores every open issue.
   */
  private async learnFrom(
    paced: BacklogGitHub,
    base: string,
    owner: string,
    repo: string,
    name: string,
    log: Logger,
  ) {
    const closed: ListedIssue[] = [];
    const trail = new PageTrail(base, LEARN_MAX_PAGES);
    let url: string | null =
      `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues?state=closed&sort=updated&direction=desc&per_page=${BACKLOG_PAGE_SIZE}`;
    for (
      let pages = 0;
      url !== null && pages < LEARN_MAX_PAGES && closed.length < LEARN_MAX_ISSUES;
      pages++
    ) {
      if (this.stopping) throw new Pause(undefined, "instance stopping");
      const page = await listPage(paced, trail.follow(url), undefined);
      closed.push(...(page.issues ?? []));
      url = page.next;
      if (!(await this.deps.store.renew(name, this.instance, this.leaseMs)))
        throw new Pause(undefined, "lease lost");
    }
    const started = Date.now();
    // The closed issues read join the similar-issues index (issue 32): a new issue may repeat a closed one.
    await this.deps.store.similar.index(
      name,
      closed.slice(0, LEARN_MAX_ISSUES).map((i) => ({
        number: i.number,
        title: i.title,
        body: i.body ?? "",
        url: i.html_url,
        state: "closed" as const,
        stateReason: i.state_reason ?? null,
      })),
    );
    const { changed } = await this.deps.learn!(name, closed.slice(0, LEARN_MAX_ISSUES));
    await this.deps.store.learned(name, { rescore: changed });
    log.info(
      { closedIssues: Math.min(closed.length, LEARN_MAX_ISSUES), ms: Date.now() - started },
      "learning: done",
    );
  }

  private async findInstallation(owner: string, repo: string): Promise<number> {
    try {
      const app = await this.deps.github(undefined);
      const { data } = await this.paced(app).request("GET /repos/{owner}/{repo}/installation", {
        owner,
        repo,
      });
      return (data as { id: number }).id;
    } catch (error) {
      if (error instanceof Pause) throw error;
      if ((error as { status?: number }).status === 404)
        throw new GiveUp(`the App is not installed on ${owner}/${repo}: install it there first`);
      throw error;
    }
  }

  private async scoreAll(
    repository: string,
    installationId: number,
    settings: BacklogRepoSettings,
    issues: ListedIssue[],
    /** The run's paced client: writes (labels, a board) keep to the same limits as reads, and a pause stops the
     * run before the issue's report is stored, so the issue is scored and written again when the run resumes. */
    paced: BacklogGitHub,
  ): Promise<void> {
    const { store } = this.deps;
    const stored = await store.hashes(
      repository,
      issues.map((i) => i.number),
    );
    const unchanged: number[] = [];
    let renewed = Date.now();
    for (const issue of issues) {
      if (this.stopping) throw new Pause(undefined, "instance stopping");
      const hash = this.deps.contentHash(issue.title, issue.body ?? "");
      if (stored.get(issue.number) === hash) {
        unchanged.push(issue.number);
        continue;
      }
      if (settings.skips(issue)) continue;
      if (this.deps.usesModel) {
        const day = this.now().toISOString().slice(0, 10);
        if (!(await store.takeBudget(installationId, day, settings.budget))) {
          await store.markSeen(repository, unchanged);
          const midnight = new Date(`${day}T00:00:00.000Z`);
          midnight.setUTCDate(midnight.getUTCDate() + 1);
          throw new Pause(
            midnight,
            `the daily backlog budget (${settings.budget} reports a day) is used; resuming at 00:00 UTC`,
          );
        }
      }
      await this.deps.score(repository, issue, hash, paced);
      if (Date.now() - renewed > this.leaseMs / 3) {
        if (!(await store.renew(repository, this.instance, this.leaseMs)))
          throw new Pause(undefined, "lease lost");
        renewed = Date.now();
      }
    }
    await store.markSeen(repository, unchanged);
  }
}
