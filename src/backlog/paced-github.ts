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
