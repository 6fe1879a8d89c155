import type { FastifyReply, FastifyRequest } from "fastify";
import { TaskScorerError } from "../../core/errors.js";
import type { BacklogStore } from "../../backlog/backlog-store.js";
import { sendError } from "../http-errors.js";
import type { FixedWindowLimiter } from "../rate-limit.js";
import { STORAGE_REQUIRED, type BacklogRouteOptions } from "./backlog-route-options.js";

/**
 * What the backlog's routes (the tasks list and CSV, similar issues) do before their own work, in one place so
 * that they answer alike: a client's turn under its rate limit, and who may read a repository's backlog.
 */

/**
 * Takes one of the client's turns (a signed-in user by their GitHub id, anyone else by address). Over the limit it
 * sends 429 `rate_limited` with Retry-After and returns true; `what` names what was asked for too often.
 */
export function overLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  access: BacklogRouteOptions["access"],
  limiter: FixedWindowLimiter,
  what: string,
  perMinute: number,
): boolean {
  const user = access?.userOf?.(request);
  const wait = limiter.take(user ? `user:${user}` : `ip:${request.ip}`);
  if (wait <= 0) return false;
  const who = user ? "by your GitHub account" : "from this address";
  void sendError(
    reply,
    "rate_limited",
    `Too many ${what} ${who}: at most ${perMinute} a minute. Try again in ${wait} s.`,
    { headers: { "retry-after": String(wait) } },
  );
  return true;
}

type RepositoryRow = NonNullable<Awaited<ReturnType<BacklogStore["repositoryWithCalibration"]>>>;

/**
 * The repository's row when the request may read its backlog; throws the answer otherwise. Unknown repositories and
 * private ones answer alike (401 signed out, 404 without access), so the answer discloses nothing. Sets the
 * response's caching: private answers are never stored.
 */
export async function readableRepository(
  request: FastifyRequest,
  reply: FastifyReply,
  options: BacklogRouteOptions,
  owner: string,
  repo: string,
): Promise<{ store: BacklogStore; row: RepositoryRow }> {
  const { store, access } = options;
  if (!store) throw new TaskScorerError("storage_required", STORAGE_REQUIRED);
  const name = `${owner}/${repo}`;
  const row = await store.repositoryWithCalibration(name);
  if (!row || row.private !== false) {
    const verdict = access ? await access.check(request, owner, repo) : "unauthenticated";
    if (verdict === "unauthenticated")
      throw new TaskScorerError(
        "unauthorized",
        // True of a private repository and of one the App never scored alike: the answer is the same.
        access
          ? `No backlog here: the App has not scored a public repository named ${name}. If it is private, sign in with GitHub to see it (/auth/github/login?return_to=/board/${name}).`
          : `${name}'s backlog is private or unknown, and sign-in is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, SESSION_SECRET).`,
      );
    if (verdict === "not_found" || !row)
      throw new TaskScorerError(
        "not_found",
        `task-scorer has no backlog for ${name}. Install the GitHub App on it, or ask a maintainer to comment \`/score backlog\` on one of its issues.`,
      );
    reply.header("cache-control", "private, no-store");
  } else {
    reply.header("cache-control", "no-cache");
  }
  return { store, row };
}
