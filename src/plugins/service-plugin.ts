import type { FastifyInstance } from "fastify";
import type { Database } from "../storage/database.js";
import type { KeyAccess } from "../accounts/key-access.js";
import type { ApprovalPolicy } from "../core/approval.js";
import type { Scorer } from "../core/scorer.js";
import type { BacklogStore } from "../backlog/backlog-store.js";
import type { CalibrationStore } from "../learning/calibration-store.js";
import type { DatabaseOutputProblems } from "../app/output-problems.js";
import type { SessionCookies } from "../http/session-cookie.js";
import type { UserRepoAccess } from "../github/user-repo-access.js";
import type { GitHubUrls } from "../github/github-oauth.js";
import type { JobQueue } from "../app/job-queue.js";
import type { BackfillRunner } from "../backlog/backfill-runner.js";

/**
 * The service's parts, one plugin per concern (storage-plugin.ts, keys-plugin.ts, ...), each registered by
 * `composeService` in order. A plugin finds what an earlier one made on the server (a decoration), adds its own,
 * and stops its part in an `onClose` hook; fastify runs those in the reverse order of registration, after the
 * server has stopped taking requests and finished those in flight, so each part stops before what it uses.
 */
declare module "fastify" {
  interface FastifyInstance {
    /** storage-plugin: the database, when the service stores things. */
    database: Database | undefined;
    /** keys-plugin: API keys and plans (AUTH=keys). */
    keyAccess: KeyAccess | undefined;
    /** scoring-plugin: the one scorer the REST API and the App share. */
    scoring: Scoring;
    /** backlog-plugin: the backlog's stores (absent without a database). */
    backlog: BacklogParts;
    /** sign-in-plugin: "Sign in with GitHub", and GitHub's URLs. */
    signIn: SignInParts;
    /** github-app-plugin: the App's queue and backfill, when the App runs. */
    githubApp: GitHubAppParts | undefined;
    /** When the parts must have stopped by: set by `Service.close(graceMs)`. */
    shutdown: ShutdownClock;
  }
}

export interface Scoring {
  scorer: Scorer;
  description: string;
  policy: ApprovalPolicy;
  /** Whether a model scores (not the offline judge): the backfill then paces itself. */
  usesModel: boolean;
}

export interface BacklogParts {
  store: BacklogStore | undefined;
  calibrations: CalibrationStore | undefined;
  outputProblems: DatabaseOutputProblems | undefined;
}

export interface SignInParts {
  sessions: SessionCookies | undefined;
  userRepoAccess: UserRepoAccess | undefined;
  github: GitHubUrls;
}

export interface GitHubAppParts {
  queue: JobQueue;
  backfill: BackfillRunner | undefined;
  webhookPath: string;
}

export class ShutdownClock {
  /** Epoch ms by which the parts must have stopped; unset, `DEFAULT_GRACE_MS` from when the closing starts. */
  end: number | undefined;
  static readonly DEFAULT_GRACE_MS = 25_000;

  /** Milliseconds left before the deadline (0 once past). */
  remainingMs(): number {
    this.end ??= Date.now() + ShutdownClock.DEFAULT_GRACE_MS;
    return Math.max(0, this.end - Date.now());
  }
}

/**
 * A plugin whose decorations and hooks belong to the server itself rather than to a scope of its own (fastify's
 * `skip-override`, what `fastify-plugin` sets), so that later plugins and `composeService` see what it made.
 */
export function servicePlugin<O>(
  name: string,
  register: (server: FastifyInstance, options: O) => Promise<void>,
): (server: FastifyInstance, options: O) => Promise<void> {
  const plugin = (server: FastifyInstance, options: O) => register(server, options);
  Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: name });
  return plugin;
}
