import { createHash } from "node:crypto";
import type { PageMemo } from "./backfill-queue-store.js";

/** One open issue as GitHub's list gives it (pull requests are filtered out before). */
export interface ListedIssue {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  /** GraphQL node id (for `output: [project]`). */
  node_id?: string;
  labels?: unknown;
  created_at?: string;
  updated_at?: string;
  pull_request?: unknown;
  /** Closed issues only: "completed", "not_planned", "duplicate", "reopened" or null. */
  state_reason?: string | null;
}

/** What the runner needs of GitHub, for one installation (an Octokit's `request`, narrowed). */
export interface BacklogGitHub {
  request(
    route: string,
    params?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Record<string, string | number | undefined>; data: unknown }>;
}

/** Stop this run for now; the repository is resumed after `until` by whichever instance is free. */
export class Pause extends Error {
  constructor(
    readonly until: Date | undefined,
    reason: string,
  ) {
    super(reason);
  }
}
/** Give this repository up with a reason a maintainer can act on. */
export class GiveUp extends Error {}

type Headers = Record<string, string | number | undefined>;

const header = (h: Headers, name: string) => (h[name] === undefined ? undefined : String(h[name]));

/** The `rel="next"` address of a Link header. */
export function nextLink(link: string | undefined): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * At most this many pages of one list in one run: 100,000 issues at 100 a page (a 20,000-issue backlog needs 200).
 * A `Link` that never ends is stopped here (the runner's `maxPages` may set another).
 */
export const MAX_LIST_PAGES = 1000;

/** GitHub's REST API when the client does not say (Octokit's own default). */
export const DEFAULT_API_BASE_URL = "https://api.github.com";

/**
 * The pages one listing may request. A `Link` header is the API's answer, not ours to trust: its `next` is followed
 * only on the origin of the API's base URL (a page elsewhere would be sent the installation token), never to a page
 * already listed in this run (a `next` pointing back loops forever), and for at most `maxPages` pages. A refused
 * page is a `GiveUp` whose reason says why. `listed` (short hashes of the pages' addresses) is stored with the run's
 * progress, so a run resumed by another instance, or after its turn, keeps the same rules.
 */
export class PageTrail {
  private readonly base: URL;
  readonly listed: string[];
  private readonly seen: Set<string>;

  constructor(
    apiBaseUrl: string,
    readonly maxPages: number = MAX_LIST_PAGES,
    listed: readonly string[] = [],
  ) {
    this.base = new URL(apiBaseUrl);
    this.listed = [...listed];
    this.seen = new Set(listed);
  }

  /** The API's origin, as the refusals name it. */
  get origin(): string {
    return this.base.origin;
  }

  /**
   * What to request for `url`: a path of the API ("/repos/...", which the client sends under its base URL) as it
   * is, or the `next` of a Link header as an absolute URL on the API's origin. Records it as listed; throws `GiveUp`
   * when it is on another origin, was listed before, or is one page too many.
   */
  follow(url: string): string {
    const path = url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\");
    let target: URL;
    try {
      // A path is the API's, under its base path (as Octokit sends it); anything else must be an absolute URL.
      target = path ? new URL(this.base.href.replace(/\/+$/, "") + url) : new URL(url, this.base);
    } catch {
      throw new GiveUp(
        `GitHub's Link header gave an address that is not a URL; the listing was stopped there`,
      );
    }
    if (target.origin !== this.base.origin || target.username || target.password)
      throw new GiveUp(
        `GitHub's Link header pointed to ${target.origin === "null" ? "another kind of address" : target.origin}, not the API (${this.base.origin}); it was not followed`,
      );
    // Braces would be read as a URL template by Octokit: sent escaped.
    const href = target.href.replace(/[{}]/g, (c) => encodeURIComponent(c));
    const key = createHash("sha256").update(href).digest("hex").slice(0, 16);
    if (this.seen.has(key))
      throw new GiveUp(
        `GitHub's Link header pointed back to a page already listed in this run; the listing was stopped there`,
      );
    if (this.listed.length >= this.maxPages)
      throw new GiveUp(
        `the listing was stopped after ${this.maxPages} pages (the most one run follows); the issues beyond were not listed`,
      );
    this.seen.add(key);
    this.listed.push(key);
    return path ? url : href;
  }
}

function untilReset(h: Headers, now: Date): Pause {
  const reset = Number(header(h, "x-ratelimit-reset"));
  const until = Number.isFinite(reset) ? new Date(reset * 1000 + 1000) : new Date(now.getTime() + 60_000);
  return new Pause(until, `GitHub's hourly rate limit is nearly used (resets at ${until.toISOString()})`);
}

/**
 * A client whose every request keeps to GitHub's limits: it stops (a `Pause`) before the hourly allowance falls
 * to `reserve`, and obeys `retry-after` and secondary limits, so the backfill never spends what the App's own
 * comments need.
 */
export function pacedGitHub(
  github: BacklogGitHub,
  limits: { reserve: number; now: () => Date },
): BacklogGitHub {
  return {
    async request(route, params = {}) {
      try {
        const r = await github.request(route, params);
        const remaining = Number(header(r.headers, "x-ratelimit-remaining"));
        if (Number.isFinite(remaining) && remaining <= limits.reserve)
          throw untilReset(r.headers, limits.now());
        return r;
      } catch (error) {
        if (error instanceof Pause) throw error;
        const e = error as { status?: number; response?: { headers?: Headers } };
        const h = e.response?.headers ?? {};
        if (e.status === 403 || e.status === 429) {
          const retryAfter = Number(header(h, "retry-after"));
          if (Number.isFinite(retryAfter) && retryAfter > 0)
            throw new Pause(
              new Date(limits.now().getTime() + retryAfter * 1000),
              `GitHub asked to wait ${retryAfter} s (secondary rate limit)`,
            );
          if (header(h, "x-ratelimit-remaining") === "0") throw untilReset(h, limits.now());
          // A secondary limit without retry-after: GitHub's advice is to wait at least a minute.
          if (e.status === 429)
            throw new Pause(new Date(limits.now().getTime() + 60_000), "GitHub's secondary rate limit");
        }
        throw error;
      }
    },
  };
}

/**
 * One page of an issues list, pull requests left out. With the page's ETag from the last run, GitHub's 304 (which
 * costs no rate limit) gives back what that run stored.
 */
export async function listPage(
  github: BacklogGitHub,
  url: string,
  memo: PageMemo | undefined,
): Promise<{ issues?: ListedIssue[]; numbers: number[]; next: string | null; etag?: string | undefined }> {
  try {
    const r = await github.request(
      `GET ${url}`,
      memo?.etag ? { headers: { "if-none-match": memo.etag } } : {},
    );
    const issues = (r.data as ListedIssue[]).filter((i) => !i.pull_request);
    return {
      issues,
      numbers: issues.map((i) => i.number),
      next: nextLink(header(r.headers, "link")),
      etag: header(r.headers, "etag"),
    };
  } catch (error) {
    if ((error as { status?: number }).status === 304 && memo)
      return { numbers: memo.numbers ?? [], next: memo.next, etag: memo.etag };
    throw error;
  }
}
