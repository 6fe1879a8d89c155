import { createHash } from "node:crypto";
import { TaskScorerError } from "../core/errors.js";

/**
 * Who may read a private repository's backlog: the signed-in GitHub user, asked of GitHub with that user's
 * own token (`GET /repos/{owner}/{repo}`), so the answer is exactly what GitHub would show them. It implements
 * the backlog route's `PrivateRepoAccess`; the session is read by whatever `sessions` the server gives it.
 *
 * - no session, or GitHub answers 401 (a revoked or expired token): "unauthenticated", and the session is
 *   forgotten (its cookie cleared on this answer);
 * - 200: "allowed"; 404 or 403: "not_found" (GitHub itself answers 404 for a private repository one cannot see);
 * - GitHub unreachable, 5xx, or rate-limited: a 503 `github_unavailable`, never a guess.
 *
 * Verdicts ("allowed", "not_found") are kept 60 s per (user, token, repository), at most 1,000, so that a
 * board's repeated fetches do not each cost a call; a 401 is never kept.
 */

export type AccessVerdict = "allowed" | "unauthenticated" | "not_found";

export interface SessionUser {
  login: string;
  id: number;
  token: string;
}

/** Where the request's session comes from (the server's signed cookie), and how a revoked one is dropped. */
export interface SessionSource<R> {
  sessionOf(request: R): SessionUser | undefined;
  forget(request: R, session?: SessionUser): void;
}

export interface UserRepoAccessOptions<R> {
  sessions: SessionSource<R>;
  /** The REST API's base URL: https://api.github.com, or {protocol}://{host}/api/v3 on GitHub Enterprise. */
  apiUrl: string;
  ttlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
}

export const ACCESS_TTL_MS = 60_000;
export const MAX_ACCESS_ENTRIES = 1_000;

export class UserRepoAccess<R = unknown> {
  private readonly verdicts = new Map<string, { verdict: "allowed" | "not_found"; until: number }>();
  private readonly inFlight = new Map<string, Promise<AccessVerdict>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly fetchImpl: typeof fetch;
  /** GitHub calls made, for tests and metrics. */
  calls = 0;

  constructor(private readonly options: UserRepoAccessOptions<R>) {
    this.ttlMs = options.ttlMs ?? ACCESS_TTL_MS;
    this.maxEntries = options.maxEntries ?? MAX_ACCESS_ENTRIES;
    this.now = options.now ?? Date.now;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** The signed-in user's GitHub id, if any: the backlog's rate limit counts their requests as theirs. */
  userOf(request: R): string | undefined {
    const session = this.options.sessions.sessionOf(request);
    return session ? String(session.id) : undefined;
  }

  async check(request: R, owner: string, repo: string): Promise<AccessVerdict> {
    const session = this.options.sessions.sessionOf(request);
    if (!session) return "unauthenticated";
    const key = `${session.id}\n${createHash("sha256").update(session.token).digest("base64url")}\n${owner.toLowerCase()}/${repo.toLowerCase()}`;
    const cached = this.verdicts.get(key);
    if (cached && cached.until > this.now()) return cached.verdict;
    if (cached) this.verdicts.delete(key);

    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.ask(session, owner, repo).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const verdict = await pending;
    if (verdict === "unauthenticated") {
      this.options.sessions.forget(request, session);
      return verdict;
    }
    this.remember(key, verdict);
    return verdict;
  }

  private remember(key: string, verdict: "allowed" | "not_found"): void {
    const now = this.now();
    if (this.verdicts.size >= this.maxEntries) {
      for (const [k, v] of this.verdicts) if (v.until <= now) this.verdicts.delete(k);
      // Still full: drop the oldest (Map keeps insertion order).
      while (this.verdicts.size >= this.maxEntries) {
        const oldest = this.verdicts.keys().next().value;
        if (oldest === undefined) break;
        this.verdicts.delete(oldest);
      }
    }
    this.verdicts.set(key, { verdict, until: now + this.ttlMs });
  }

  private async ask(session: SessionUser, owner: string, repo: string): Promise<AccessVerdict> {
    const name = `${owner}/${repo}`;
    const unavailable = (why: string, cause?: unknown) =>
      new TaskScorerError(
        "github_unavailable",
        `GitHub ${why}, so your access to ${name} could not be checked. Try again in a minute.`,
        undefined,
        cause === undefined ? undefined : { cause },
      );
    this.calls++;
    let res: Response;
    try {
      res = await this.fetchImpl(
        `${this.options.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
        {
          headers: {
            accept: "application/vnd.github+json",
            authorization: `Bearer ${session.token}`,
            "user-agent": "task-scorer",
          },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        },
      );
    } catch {
      throw unavailable(`could not be reached at ${new URL(this.options.apiUrl).host}`);
    }
    // The body is not needed: any 200 means GitHub shows the user the repository (permissions.pull at least).
    await res.body?.cancel().catch(() => undefined);
    if (res.status === 200) return "allowed";
    if (res.status === 401) return "unauthenticated";
    const rateLimited =
      res.status === 429 || (res.status === 403 && res.headers.get("x-ratelimit-remaining") === "0");
    if (rateLimited) throw unavailable("is rate-limiting requests for your account");
    if (res.status === 403 || res.status === 404) return "not_found";
    throw unavailable(`answered ${res.status}`);
  }
}
