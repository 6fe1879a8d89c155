import type { FastifyRequest } from "fastify";
import type { BacklogStore } from "../../backlog/backlog-store.js";

/**
 * What the backlog's routes (the tasks list and CSV, similar issues) share: names, limits and options. In a file of
 * its own so that the tasks route, which registers the similar-issues route, and that route do not import each other.
 */
/** GitHub's own rules for names: an owner (user or organisation) and a repository. */
export const OWNER_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
export const REPO_RE = /^[A-Za-z0-9._-]{1,100}$/;

export type AccessVerdict = "allowed" | "unauthenticated" | "not_found";

/** Who may read a private repository's backlog: the signed-in GitHub user's own access (see sign-in). */
export interface PrivateRepoAccess {
  check(request: FastifyRequest, owner: string, repo: string): Promise<AccessVerdict>;
  /** The signed-in GitHub user's id, if any: the rate limit counts a signed-in user's requests as theirs. */
  userOf?(request: FastifyRequest): string | undefined;
}

/** Requests per client (address, or signed-in user) and minute: JSON pages, and CSV downloads (every row). */
export const TASKS_PER_MINUTE = 1200;
export const CSV_PER_MINUTE = 10;

export interface BacklogRouteOptions {
  /** Absent when the server runs without a database: the backlog needs one. */
  store?: BacklogStore | undefined;
  access?: PrivateRepoAccess | undefined;
  /** Per client and minute (defaults TASKS_PER_MINUTE and CSV_PER_MINUTE); BACKLOG_REQUESTS_PER_MINUTE and tests set them. */
  rateLimit?:
    { json?: number | undefined; csv?: number | undefined; windowMs?: number | undefined } | undefined;
}

export const STORAGE_REQUIRED =
  "The backlog needs storage, and this server runs without it: set DATA_DIR (the embedded database) or DATABASE_URL (PostgreSQL) and restart.";
