import { sql, type Generated, type Kysely, type Selectable } from "kysely";
import type { Db, Tables } from "../storage/tables.js";
import type { BackfillProgress } from "./task-list.schema.js";

/** GitHub's owner and repository names are case-insensitive: rows are keyed by the lower-case "owner/name". */
export function repositoryKey(fullName: string): string {
  return fullName.toLowerCase();
}

/** The queue's tables: backlog_repositories with migrations/011's columns (turns, the pages a run listed). */
type QueueTables = Omit<Tables, "backlog_repositories"> & {
  backlog_repositories: Tables["backlog_repositories"] & {
    turn_at: Date | null;
    /** JSON: short hashes of the pages this run listed (see PageTrail in paced-github.ts). */
    listed_pages: Generated<string>;
  };
};

export type RepositoryRow = Selectable<QueueTables["backlog_repositories"]>;

/** A page of the issues list already seen: replayed when GitHub answers 304 to its ETag. */
export interface PageMemo {
  etag: string;
  next: string | null;
  count: number;
  /** The open issues it listed: still open, though not fetched again. */
  numbers?: number[];
}

/**
 * Each repository's row of the backlog (migrations/008): what GitHub said about it, its backfill, whose lease lets
 * one instance of a fleet run it at a time and another take over when that one dies, its learning requests and the
 * installations' daily budget of model-made reports. The tasks themselves are BacklogStore's (backlog-store.ts).
 */
export class BackfillQueueStore {
  constructor(protected readonly db: Db) {}

  /**
   * The repository's row and, for the tasks API, its `calibration` (closed issues learned from, 0 until
   * learned, and whether it is used), read in the same statement.
   */
  async repositoryWithCalibration(
    repository: string,
  ): Promise<(RepositoryRow & { calibration: { closedIssues: number; used: boolean } }) | undefined> {
    const row = await this.db
      .selectFrom("backlog_repositories as r")
      .leftJoin("repository_calibrations as c", "c.repository", "r.repository")
      .selectAll("r")
      .select(["c.closed_issues", "c.used"])
      .where("r.repository", "=", repositoryKey(repository))
      .executeTakeFirst();
    if (!row) return undefined;
    const { closed_issues, used, ...rest } = row;
    return {
      ...(rest as RepositoryRow),
      calibration: { closedIssues: closed_issues ?? 0, used: used ?? false },
    };
  }

  async repository(repository: string): Promise<RepositoryRow | undefined> {
    return (await this.db
      .selectFrom("backlog_repositories")
      .selectAll()
      .where("repository", "=", repositoryKey(repository))
      .executeTakeFirst()) as RepositoryRow | undefined;
  }

  /** What GitHub said about a repository (from an event or the API); does not start a backfill. */
  async noteRepository(
    fullName: string,
    facts: { installationId?: number; private?: boolean },
  ): Promise<void> {
    await this.db
      .insertInto("backlog_repositories")
      .values({
        repository: repositoryKey(fullName),
        display_name: fullName,
        installation_id: facts.installationId ?? null,
        private: facts.private ?? null,
        // Known, not asked for: nothing to backfill until an install, a command or the admin CLI asks.
        state: "done",
      })
      .onConflict((oc) =>
        oc.column("repository").doUpdateSet({
          display_name: fullName,
          installation_id: sql`COALESCE(excluded.installation_id, backlog_repositories.installation_id)`,
          private: sql`COALESCE(excluded.private, backlog_repositories.private)`,
        }),
      )
      .execute();
  }

  /**
   * Ask for a backfill. A repository already queued or running keeps its place and progress (asking twice
   * is one backfill); a finished one starts again from the first page, where its ETags spare GitHub's limit.
   * Returns the state it is now in.
   */
  async requestBackfill(
    fullName: string,
    facts: { installationId?: number | undefined; private?: boolean | undefined } = {},
    options: { learn?: boolean } = {},
  ): Promise<"queued" | "running"> {
    // Learning (issue 18) reads the closed issues before the next listing; a running backfill learns when it
    // has finished (finish() queues it again).
    const learn = options.learn === true;
    const row = await sql<{ state: string }>`
      INSERT INTO backlog_repositories (repository, display_name, installation_id, private, state, learn_requested)
      VALUES (${repositoryKey(fullName)}, ${fullName}, ${facts.installationId ?? null}, ${facts.private ?? null}, 'queued', ${learn})
      ON CONFLICT (repository) DO UPDATE SET
        learn_requested = backlog_repositories.learn_requested OR excluded.learn_requested,
        display_name = excluded.display_name,
        installation_id = COALESCE(excluded.installation_id, backlog_repositories.installation_id),
        private = COALESCE(excluded.private, backlog_repositories.private),
        state = CASE WHEN backlog_repositories.state = 'done' THEN 'queued' ELSE backlog_repositories.state END,
        next_url = CASE WHEN backlog_repositories.state = 'done' THEN NULL ELSE backlog_repositories.next_url END,
        done = CASE WHEN backlog_repositories.state = 'done' THEN 0 ELSE backlog_repositories.done END,
        requested_at = CASE WHEN backlog_repositories.state = 'done' THEN now() ELSE backlog_repositories.requested_at END,
        turn_at = CASE WHEN backlog_repositories.state = 'done' THEN NULL ELSE backlog_repositories.turn_at END,
        last_error = NULL
      RETURNING state`.execute(this.db);
    return row.rows[0]!.state as "queued" | "running";
  }

  /**
   * Take the backfill that has waited longest, or whose holder's lease ran out (that instance died), unless
   * it is paused. Waiting counts from the request, or from when a running backfill last handed its turn back
   * (yieldTurn): repositories take turns. One statement: two instances never take the same repository.
   */
  async claim(owner: string, leaseMs: number): Promise<RepositoryRow | undefined> {
    const rows = await sql<RepositoryRow>`
      UPDATE backlog_repositories SET state = 'running', lease_owner = ${owner},
        started_at = CASE WHEN state = 'queued' OR started_at IS NULL THEN now() ELSE started_at END,
        lease_until = now() + (${leaseMs}::bigint * interval '1 millisecond')
      WHERE repository = (
        SELECT repository FROM backlog_repositories
        WHERE state IN ('queued', 'running')
          AND (lease_until IS NULL OR lease_until < now())
          AND (not_before IS NULL OR not_before <= now())
        ORDER BY COALESCE(turn_at, requested_at), requested_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`.execute(this.db);
    return rows.rows[0];
  }

  /** An update of a repository's row that takes effect only while `owner` still holds its lease. */
  private whileLeased(repository: string, owner: string) {
    return (this.db as unknown as Kysely<QueueTables>)
      .updateTable("backlog_repositories")
      .where("repository", "=", repositoryKey(repository))
      .where("lease_owner", "=", owner);
  }

  /**
   * Record a finished page and extend the lease. False when this instance no longer holds the lease (it
   * stalled past it and another took over): the caller stops.
   */
  async advance(
    repository: string,
    owner: string,
    leaseMs: number,
    step: {
      nextUrl: string | null;
      done: number;
      total: number;
      etags: Record<string, PageMemo>;
      /** The pages this run listed (PageTrail's). */
      listed?: readonly string[];
    },
  ): Promise<boolean> {
    const r = await this.whileLeased(repository, owner)
      .set({
        next_url: step.nextUrl,
        done: step.done,
        total: step.total,
        etags: JSON.stringify(step.etags),
        ...(step.listed ? { listed_pages: JSON.stringify(step.listed) } : {}),
        lease_until: sql`now() + (${leaseMs}::bigint * interval '1 millisecond')`,
      })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Whether another repository's backfill could be claimed now (queued, or running with no live lease, and not
   * paused): then the holder of `repository` hands its turn back after the page in hand.
   */
  async othersWaiting(repository: string): Promise<boolean> {
    const r = await sql<{ waiting: boolean }>`
      SELECT EXISTS (SELECT 1 FROM backlog_repositories
        WHERE repository <> ${repositoryKey(repository)}
          AND state IN ('queued', 'running')
          AND (lease_until IS NULL OR lease_until < now())
          AND (not_before IS NULL OR not_before <= now())) AS waiting`.execute(this.db);
    return r.rows[0]?.waiting === true;
  }

  /**
   * Hand the turn back: the backfill stays running with its cursor, unleased, and goes behind every repository
   * waiting now; the next claim (any instance's) serves the one that waited longest.
   */
  async yieldTurn(repository: string, owner: string): Promise<void> {
    await this.whileLeased(repository, owner)
      .set({ lease_owner: null, lease_until: null, turn_at: sql`now()` })
      .execute();
  }

  /** Extend the lease without progress (a long page of model calls). */
  async renew(repository: string, owner: string, leaseMs: number): Promise<boolean> {
    const r = await this.whileLeased(repository, owner)
      .set({ lease_until: sql`now() + (${leaseMs}::bigint * interval '1 millisecond')` })
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Stop for now and let any instance resume after `until` (GitHub's rate limit, the daily budget, a shutdown). */
  async pause(repository: string, owner: string, until: Date | undefined, reason: string): Promise<void> {
    await this.whileLeased(repository, owner)
      .set({ lease_owner: null, lease_until: null, not_before: until ?? null, last_error: reason })
      .execute();
  }

  /**
   * The run listed every open issue: what it did not list was closed (or moved) while no event reached us,
   * and leaves the board.
   */
  async finish(repository: string, owner: string, done: number): Promise<void> {
    const key = repositoryKey(repository);
    await sql`
      UPDATE backlog_tasks SET state = 'closed'
      WHERE repository = ${key} AND state = 'open'
        AND seen_at < (SELECT started_at FROM backlog_repositories WHERE repository = ${key} AND lease_owner = ${owner})`.execute(
      this.db,
    );
    await this.whileLeased(repository, owner)
      .set({
        // Learning asked for while this run went on: run again, learning first.
        state: sql`CASE WHEN learn_requested THEN 'queued' ELSE 'done' END`,
        lease_owner: null,
        lease_until: null,
        not_before: null,
        next_url: null,
        done,
        total: done,
        last_error: null,
        turn_at: null,
        listed_pages: "[]",
        finished_at: sql`now()`,
      })
      .execute();
  }

  /**
   * Learning is done (issue 18): clear the request and, when what was learned changed, forget the stored
   * content hashes and ETags so that the run that follows scores every open issue again with it.
   */
  async learned(repository: string, { rescore }: { rescore: boolean }): Promise<void> {
    const key = repositoryKey(repository);
    await this.db
      .updateTable("backlog_repositories")
      .set(rescore ? { learn_requested: false, etags: "{}" } : { learn_requested: false })
      .where("repository", "=", key)
      .execute();
    if (!rescore) return;
    await this.db
      .updateTable("backlog_tasks")
      .set({ content_hash: "" })
      .where("repository", "=", key)
      .execute();
  }

  /**
   * Weekly re-learning: every repository backfilled before whose last learning is older than `olderThanMs`
   * (or that never learned), or whose kind adjustment was fitted against another kind model than `kindModel`
   * (a release refitted it: the adjustment is no longer applied), is queued to learn and re-score. Returns how
   * many were queued.
   */
  async requestStaleLearning(olderThanMs: number, kindModel: string): Promise<number> {
    const r = await sql`
      UPDATE backlog_repositories SET learn_requested = true, state = 'queued', next_url = NULL, done = 0,
        requested_at = now(), turn_at = NULL, last_error = NULL
      WHERE state = 'done' AND finished_at IS NOT NULL AND last_error IS NULL AND NOT learn_requested
        AND NOT EXISTS (SELECT 1 FROM repository_calibrations c
          WHERE c.repository = backlog_repositories.repository
            AND c.learned_at > now() - (${olderThanMs}::bigint * interval '1 millisecond')
            AND (jsonb_typeof(c.calibration::jsonb -> 'kind') IS DISTINCT FROM 'object'
              OR c.calibration::jsonb -> 'kind' ->> 'model' = ${kindModel}))`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }

  /** Give up on a repository for a reason a maintainer can act on (the App is not installed there...). */
  async fail(repository: string, owner: string, reason: string): Promise<void> {
    await this.whileLeased(repository, owner)
      .set({
        state: "done",
        lease_owner: null,
        lease_until: null,
        last_error: reason,
        finished_at: sql`now()`,
      })
      .execute();
  }

  /**
   * Count one model-made report against an installation's daily budget: false (and nothing counted) when
   * the day's budget is spent. One conditional upsert, exact across a fleet.
   */
  async takeBudget(installationId: number, day: string, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    const r = await sql<{ used: number }>`
      INSERT INTO backlog_budget (installation_id, day, used) VALUES (${installationId}, ${day}, 1)
      ON CONFLICT (installation_id, day) DO UPDATE SET used = backlog_budget.used + 1
      WHERE backlog_budget.used < ${limit}
      RETURNING used`.execute(this.db);
    return r.rows.length > 0;
  }

  static progress(row: RepositoryRow | undefined): BackfillProgress {
    if (!row) return { state: "done", done: 0, total: 0 };
    const state: BackfillProgress["state"] =
      row.state === "running" ? "running" : row.state === "queued" ? "queued" : "done";
    return { state, done: row.done, total: Math.max(row.total, row.done) };
  }
}
