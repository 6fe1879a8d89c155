import { sql } from "kysely";
import type { PersonaId } from "../core/personas.js";
import { BackfillQueueStore, repositoryKey } from "./backfill-queue-store.js";
import { SimilarStore } from "./similar-store.js";
import type { BacklogTask, TaskListQuery } from "./task-list.schema.js";

export interface TaskRecord {
  repository: string;
  number: number;
  title: string;
  url: string;
  score: number;
  approved: boolean;
  needsHuman: boolean;
  kind: string;
  personas: Record<PersonaId, number>;
  /** The whole report, as REST returns it. */
  report: unknown;
  contentHash: string;
  createdAt?: Date | undefined;
  updatedAt?: Date | undefined;
}

export interface TaskPage {
  total: number;
  tasks: BacklogTask[];
  nextCursor: string | null;
}

const ORDER: Record<TaskListQuery["sort"], string> = {
  "-score": "score DESC, number ASC",
  score: "score ASC, number ASC",
  number: "number ASC",
  "-number": "number DESC",
  updated: "issue_updated_at ASC NULLS LAST, number ASC",
  "-updated": "issue_updated_at DESC NULLS LAST, number ASC",
};

/** No list is longer than this (PostgreSQL's integer): a cursor past it was not made by this server. */
const MAX_CURSOR_OFFSET = 2_147_483_647;

/** The cursor is opaque to clients: an offset into the same filtered, sorted list. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}
/** The offset, or undefined for a cursor this server did not make (the route answers 400). */
export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown };
    return typeof o === "number" && Number.isInteger(o) && o >= 0 && o <= MAX_CURSOR_OFFSET ? o : undefined;
  } catch {
    return undefined;
  }
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/**
 * The backlog's tasks (migrations/008), each with its latest report, over the repositories' rows and their
 * backfill queue (backfill-queue-store.ts): one store, as the App, the runner and the API use it.
 */
export class BacklogStore extends BackfillQueueStore {
  /** Similar issues (issue 32): the index of each repository's issues, kept current by the calls below. */
  readonly similar = new SimilarStore(this.db);

  async saveTask(t: TaskRecord): Promise<void> {
    const row = {
      repository: repositoryKey(t.repository),
      number: t.number,
      // PostgreSQL's text cannot hold NUL, which an issue's text can carry: shown as a space, the task is kept.
      title: t.title.replaceAll("\u0000", " "),
      url: t.url,
      state: "open",
      score: t.score,
      approved: t.approved,
      needs_human: t.needsHuman,
      kind: t.kind,
      personas: JSON.stringify(t.personas),
      report: JSON.stringify(t.report),
      content_hash: t.contentHash,
      issue_created_at: t.createdAt ?? null,
      issue_updated_at: t.updatedAt ?? null,
      scored_at: sql<Date>`now()`,
      seen_at: sql<Date>`now()`,
    };
    await this.db
      .insertInto("backlog_tasks")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["repository", "number"]).doUpdateSet({
          ...row,
          // An issue's opening date does not change; keep the first one known.
          issue_created_at: sql`COALESCE(excluded.issue_created_at, backlog_tasks.issue_created_at)`,
        }),
      )
      .execute();
    // The report echoes the text it scored: the similar-issues index reads the same title and description.
    const echoed = t.report as { task?: unknown; description?: unknown } | null;
    await this.similar.index(t.repository, [
      {
        number: t.number,
        title: t.title,
        body: typeof echoed?.description === "string" ? echoed.description : "",
        url: t.url,
        state: "open",
      },
    ]);
  }

  /** A closed issue leaves the board; reopened, it is scored again and returns. */
  async closeTask(repository: string, number: number): Promise<void> {
    await this.db
      .updateTable("backlog_tasks")
      .set({ state: "closed" })
      .where("repository", "=", repositoryKey(repository))
      .where("number", "=", number)
      .execute();
    await this.similar.setState(repository, number, "closed");
  }

  /** Deleted or transferred away. */
  async removeTask(repository: string, number: number): Promise<void> {
    await this.db
      .deleteFrom("backlog_tasks")
      .where("repository", "=", repositoryKey(repository))
      .where("number", "=", number)
      .execute();
    await this.similar.remove(repository, number);
  }

  /** Issues a backfill listed as open (unchanged ones are not saved again, but are still open). */
  async markSeen(repository: string, numbers: readonly number[]): Promise<void> {
    if (numbers.length === 0) return;
    await this.db
      .updateTable("backlog_tasks")
      .set({ seen_at: sql`now()` })
      .where("repository", "=", repositoryKey(repository))
      .where("number", "in", [...numbers])
      .execute();
  }

  /** The stored content hashes of open tasks, to skip issues unchanged since their last report. */
  async hashes(repository: string, numbers: readonly number[]): Promise<Map<number, string>> {
    if (numbers.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("backlog_tasks")
      .select(["number", "content_hash"])
      .where("repository", "=", repositoryKey(repository))
      .where("state", "=", "open")
      .where("number", "in", [...numbers])
      .execute();
    return new Map(rows.map((r) => [r.number, r.content_hash]));
  }

  /**
   * The latest report's average score and verdict of each of these issues the backlog holds, open or closed
   * (a pull request that closes an issue names its report: the Product Manager's sentence). One statement.
   */
  async reports(
    repository: string,
    numbers: readonly number[],
  ): Promise<Map<number, { score: number; approved: boolean }>> {
    if (numbers.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("backlog_tasks")
      .select(["number", "score", "approved"])
      .where("repository", "=", repositoryKey(repository))
      .where("number", "in", [...numbers])
      .execute();
    // `real` keeps 7.4 as 7.400000095…: rounded as the tasks API rounds it.
    return new Map(
      rows.map((r) => [r.number, { score: Math.round(r.score * 100) / 100, approved: r.approved }]),
    );
  }

  /**
   * What an event says of its repository (issue 33): its visibility, its GitHub id and its name as GitHub
   * spells it now. A stored repository found by that id (or by `formerName`, a rename's or a transfer's) under
   * another name follows it: its row, tasks and learning move to the new name. Repositories the backlog does
   * not hold are left alone (unknown ones are treated as private anyway).
   */
  async followRepository(
    fullName: string,
    facts: { id?: number | undefined; private?: boolean | undefined; formerName?: string | undefined },
  ): Promise<void> {
    const key = repositoryKey(fullName);
    const update = (where: string) =>
      this.db
        .updateTable("backlog_repositories")
        .set({
          display_name: fullName,
          ...(facts.private === undefined ? {} : { private: facts.private }),
          ...(facts.id === undefined ? {} : { github_id: facts.id }),
        })
        .where("repository", "=", where)
        .executeTakeFirst();
    // The usual case, one statement: the repository is stored under its current name.
    const formerKey = facts.formerName ? repositoryKey(facts.formerName) : undefined;
    if (formerKey === undefined || formerKey === key) {
      const r = await update(key);
      if (Number(r.numUpdatedRows) > 0 || facts.id === undefined) return;
    }
    let q = this.db.selectFrom("backlog_repositories").select("repository");
    q = q.where((eb) =>
      eb.or([
        ...(facts.id === undefined ? [] : [eb("github_id", "=", facts.id)]),
        ...(formerKey === undefined ? [] : [eb("repository", "=", formerKey)]),
      ]),
    );
    const found = await q.where("repository", "<>", key).executeTakeFirst();
    if (found) await this.moveRepository(found.repository, key);
    await update(key);
  }

  /** A renamed or transferred repository's rows move to its new key (newer rows under the new key win). */
  private async moveRepository(from: string, to: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await sql`DELETE FROM backlog_repositories WHERE repository = ${to}`.execute(tx);
      await sql`UPDATE backlog_repositories SET repository = ${to}, etags = '{}' WHERE repository = ${from}`.execute(
        tx,
      );
      await sql`
        DELETE FROM backlog_tasks o WHERE o.repository = ${from}
          AND EXISTS (SELECT 1 FROM backlog_tasks n WHERE n.repository = ${to} AND n.number = o.number)`.execute(
        tx,
      );
      await sql`UPDATE backlog_tasks SET repository = ${to} WHERE repository = ${from}`.execute(tx);
      await sql`
        DELETE FROM repository_calibrations WHERE repository = ${to}
          AND EXISTS (SELECT 1 FROM repository_calibrations WHERE repository = ${from})`.execute(tx);
      await sql`UPDATE repository_calibrations SET repository = ${to} WHERE repository = ${from}`.execute(tx);
      await sql`DELETE FROM output_problems WHERE repository = ${from}`.execute(tx);
      await SimilarStore.move(tx, from, to);
    });
    this.similar.evict(from, to);
  }

  /** A deleted repository leaves the backlog: its row, its tasks and what was learned from it. */
  async forgetRepository(fullName: string, id?: number): Promise<void> {
    const key = repositoryKey(fullName);
    const rows =
      id === undefined
        ? []
        : await this.db
            .selectFrom("backlog_repositories")
            .select("repository")
            .where("github_id", "=", id)
            .execute();
    const keys = [...new Set([key, ...rows.map((r) => r.repository)])];
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("backlog_repositories").where("repository", "in", keys).execute();
      await tx.deleteFrom("backlog_tasks").where("repository", "in", keys).execute();
      await tx.deleteFrom("repository_calibrations").where("repository", "in", keys).execute();
      await tx.deleteFrom("output_problems").where("repository", "in", keys).execute();
      await SimilarStore.forget(tx, keys);
    });
    this.similar.evict(...keys);
  }

  async listTasks(
    repository: string,
    query: TaskListQuery & { limit: number },
  ): Promise<TaskPage | undefined> {
    const offset = decodeCursor(query.cursor);
    if (offset === undefined) return undefined;
    let q = this.db
      .selectFrom("backlog_tasks")
      .where("repository", "=", repositoryKey(repository))
      .where("state", "=", "open");
    if (query.kind) q = q.where("kind", "=", query.kind);
    if (query.approved !== undefined) q = q.where("approved", "=", query.approved);
    if (query.needsHuman !== undefined) q = q.where("needs_human", "=", query.needsHuman);
    if (query.q) {
      // A plain substring, case-insensitive: LIKE's own wildcards in the search text are escaped.
      const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql<boolean>`title ILIKE ${pattern}`);
    }
    if (query.duplicates !== undefined) {
      // duplicateOf is the similar-issues index's (in memory), not a column: every matching task's, memoised.
      const all = await q.select("number").execute();
      const of = await this.similar.duplicatesOf(
        repository,
        all.map((r) => r.number),
      );
      const duplicates = [...of].filter(([, earlier]) => earlier !== null).map(([n]) => n);
      if (query.duplicates)
        q = duplicates.length > 0 ? q.where("number", "in", duplicates) : q.where(sql<boolean>`false`);
      else if (duplicates.length > 0) q = q.where("number", "not in", duplicates);
    }
    // The board's columns only: the stored report (kilobytes a row) is not read for a list. The total
    // comes with the page (a window count: one statement, one scan; PGlite answers one at a time).
    const rows = await q
      .select(sql<string>`count(*) over ()`.as("total"))
      .select([
        "number",
        "title",
        "url",
        "score",
        "approved",
        "needs_human",
        "kind",
        "personas",
        "scored_at",
        "issue_created_at",
        "issue_updated_at",
      ])
      .orderBy(sql.raw(ORDER[query.sort]))
      .limit(query.limit + 1)
      .offset(offset)
      .execute();
    const more = rows.length > query.limit;
    const page = rows.slice(0, query.limit);
    const numbers = page.map((r) => r.number);
    // Each task's likely earlier duplicate (issue 32), memoised by the similar-issues index until it changes.
    const duplicates = await this.similar.duplicatesOf(repository, numbers);
    const asks = await this.asks(repository, numbers);
    // Past the last row the page is empty and carries no total: count alone then.
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : offset === 0
          ? 0
          : Number((await q.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
    return {
      total,
      nextCursor: more ? encodeCursor(offset + query.limit) : null,
      tasks: page.map((r) => ({
        number: r.number,
        title: r.title,
        ask: asks.get(r.number) ?? null,
        url: r.url,
        score: Math.round(r.score * 100) / 100,
        approved: r.approved,
        needsHuman: r.needs_human,
        kind: r.kind as BacklogTask["kind"],
        personas: JSON.parse(r.personas) as BacklogTask["personas"],
        scoredAt: iso(r.scored_at)!,
        duplicateOf: duplicates.get(r.number) ?? null,
        ...(r.issue_created_at ? { createdAt: iso(r.issue_created_at)! } : {}),
        ...(r.issue_updated_at ? { updatedAt: iso(r.issue_updated_at)! } : {}),
      })),
    };
  }

  /**
   * The reports' `reading.ask` (the author's sentence the board shows under the title) for one page's tasks: a
   * second statement, so that only the page's reports are parsed, not every report the list sorts. jsonb
   * refuses the escape `\u0000` (an issue's text may hold a NUL), so such a report is parsed here instead.
   */
  private async asks(repository: string, numbers: readonly number[]): Promise<Map<number, string | null>> {
    if (numbers.length === 0) return new Map();
    const nul = "\\u0000";
    type Text = string | null;
    const ask = sql<Text>`CASE WHEN strpos(report, ${nul}) = 0 THEN report::jsonb #>> '{reading,ask}' END`;
    const raw = sql<Text>`CASE WHEN strpos(report, ${nul}) > 0 THEN report END`;
    const rows = await this.db
      .selectFrom("backlog_tasks")
      .select(["number", ask.as("ask"), raw.as("raw")])
      .where("repository", "=", repositoryKey(repository))
      .where("number", "in", [...numbers])
      .execute();
    return new Map(rows.map((r) => [r.number, r.raw === null ? r.ask : askOf(r.raw)]));
  }
}

function askOf(report: string): string | null {
  try {
    const ask = (JSON.parse(report) as { reading?: { ask?: unknown } } | null)?.reading?.ask;
    return typeof ask === "string" ? ask : null;
  } catch {
    return null;
  }
}
