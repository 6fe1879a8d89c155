/**
 * Similar issues (issue 32): each repository's open issues and the closed ones the App has read, kept as text in
 * `similar_issues` (migrations/013) and indexed in memory per repository (src/core/similar/). One repository's
 * issues are only ever compared with its own: a private repository's text never meets another's vocabulary.
 *
 * Every instance of a fleet builds a repository's index from the table when first asked, then follows the rows'
 * `indexed_at` (checked at most every 2 s per repository) for what other instances stored; its own writes apply at
 * once. At most `kept` repositories are held in memory, the least recently used dropped first.
 */
import { sql } from "kysely";
import { withoutPrompts } from "../core/offline/prose.js";
import type { SimilarMention } from "../core/render-comment.js";
import { MAX_BODY_CHARS } from "../core/similar/features.js";
import {
  hitFields,
  SIMILAR_METHOD,
  SimilarIndex,
  type SimilarMethod,
} from "../core/similar/similar-index.js";
import type { Db } from "../storage/tables.js";
import { repositoryKey } from "./backfill-queue-store.js";

/** One issue as the index takes it. */
export interface SimilarIssueInput {
  number: number;
  title: string;
  body: string;
  url: string;
  state: "open" | "closed";
  /** Closed issues: GitHub's `state_reason` (completed, not_planned, duplicate), if any. */
  stateReason?: string | null | undefined;
}

/** One similar issue, as the API and the App's comment line use it: what the comment names, and its address. */
export interface SimilarIssue extends SimilarMention {
  url: string;
}

interface Meta {
  title: string;
  url: string;
  state: "open" | "closed";
  stateReason: string | null;
}

interface Loaded {
  index: SimilarIndex;
  issues: Map<number, Meta>;
  /** The newest `indexed_at` read, and when the table was last asked. */
  seen: Date | undefined;
  checkedAt: number;
  /**
   * duplicateOf per issue, until an issue numbered at or before it changes (only earlier issues are candidates;
   * the drift of word frequencies a later issue brings is left until then).
   */
  duplicates: Map<number, number | null>;
}

const CHECK_MS = 2_000;
/** Rows written by a transaction that committed after a newer one are caught by reading this far back. */
const OVERLAP_MS = 5_000;
export const SIMILAR_REPOSITORIES_KEPT = 16;
/** At most this many rows in one INSERT (PostgreSQL's 65,535 parameters, 7 a row). */
const BATCH = 500;

export class SimilarStore {
  private readonly cache = new Map<string, Loaded>();

  constructor(
    private readonly db: Db,
    private readonly method: SimilarMethod = SIMILAR_METHOD,
    private readonly kept = SIMILAR_REPOSITORIES_KEPT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Store (or replace) issues of a repository: the backlog's upsert, and learning's closed issues. */
  async index(repository: string, issues: readonly SimilarIssueInput[]): Promise<void> {
    if (issues.length === 0) return;
    const key = repositoryKey(repository);
    // PostgreSQL's text refuses NUL, which GitHub's API can carry in a body: a NUL would lose the whole save.
    const rows = issues.map((i) => ({
      number: i.number,
      title: withoutNul(i.title.slice(0, 1024)),
      url: i.url,
      state: i.state,
      stateReason: i.state === "closed" ? (i.stateReason ?? null) : null,
      body: withoutNul(withoutPrompts(i.body.slice(0, MAX_BODY_CHARS))),
    }));
    for (let at = 0; at < rows.length; at += BATCH) {
      const values = rows
        .slice(at, at + BATCH)
        .map(
          (r) =>
            sql`(${key}, ${r.number}, ${r.title}, ${r.url}, ${r.state}, ${r.stateReason}, ${r.body}, now())`,
        );
      await sql`
        INSERT INTO similar_issues (repository, number, title, url, state, state_reason, body, indexed_at)
        VALUES ${sql.join(values)}
        ON CONFLICT (repository, number) DO UPDATE SET
          title = excluded.title, url = excluded.url, state = excluded.state,
          state_reason = excluded.state_reason, body = excluded.body, indexed_at = now()`.execute(this.db);
    }
    const loaded = this.cache.get(key);
    if (loaded) for (const r of rows) this.apply(loaded, r);
  }

  /** Closed (or reopened): the text stays, the state changes. */
  async setState(
    repository: string,
    number: number,
    state: "open" | "closed",
    stateReason?: string | null,
  ): Promise<void> {
    const key = repositoryKey(repository);
    const reason = state === "closed" ? (stateReason ?? null) : null;
    await sql`UPDATE similar_issues SET state = ${state}, state_reason = ${reason}, indexed_at = now()
      WHERE repository = ${key} AND number = ${number}`.execute(this.db);
    const meta = this.cache.get(key)?.issues.get(number);
    if (meta) {
      meta.state = state;
      meta.stateReason = reason;
    }
  }

  /** Deleted or transferred away. */
  async remove(repository: string, number: number): Promise<void> {
    const key = repositoryKey(repository);
    await sql`DELETE FROM similar_issues WHERE repository = ${key} AND number = ${number}`.execute(this.db);
    const loaded = this.cache.get(key);
    if (loaded) {
      loaded.index.delete(number);
      loaded.issues.delete(number);
      forgetFrom(loaded.duplicates, number);
    }
  }

  /** A repository's rows follow it to a new name (inside the caller's transaction), or leave with it. */
  static async move(tx: Db, from: string, to: string): Promise<void> {
    await sql`DELETE FROM similar_issues o WHERE o.repository = ${from}
      AND EXISTS (SELECT 1 FROM similar_issues n WHERE n.repository = ${to} AND n.number = o.number)`.execute(
      tx,
    );
    await sql`UPDATE similar_issues SET repository = ${to}, indexed_at = now() WHERE repository = ${from}`.execute(
      tx,
    );
  }
  static async forget(tx: Db, keys: readonly string[]): Promise<void> {
    if (keys.length > 0)
      await sql`DELETE FROM similar_issues WHERE repository IN (${sql.join([...keys])})`.execute(tx);
  }
  /** Drop cached indexes (after a move or a forget: the next query reads the table again). */
  evict(...repositories: string[]): void {
    for (const r of repositories) this.cache.delete(repositoryKey(r));
  }

  /** Whether the repository's index holds the issue. */
  async has(repository: string, number: number): Promise<boolean> {
    return (await this.load(repository)).issues.has(number);
  }

  /**
   * The seam for the App (phase 2): the issues most like one, best first. `of` is an issue the index holds (its
   * number; undefined when it holds none by that number) or a text not stored yet (a new issue being scored).
   * The issue itself is never among them; nor, with `earlierOnly`, any issue numbered after it.
   */
  async similarTo(
    repository: string,
    of: number | { title: string; body: string; number?: number | undefined },
    limit: number,
    options: { earlierOnly?: boolean } = {},
  ): Promise<SimilarIssue[] | undefined> {
    const loaded = await this.load(repository);
    const self = typeof of === "number" ? of : of.number;
    const features =
      typeof of === "number" ? loaded.index.featuresOf(of) : loaded.index.features(of.title, of.body);
    if (!features) return undefined;
    const accept =
      self === undefined
        ? undefined
        : options.earlierOnly
          ? (key: number) => key < self
          : (key: number) => key !== self;
    // A text without a number is the newest issue: filed after every one the index holds.
    return loaded.index.query(features, limit, accept, self ?? Number.MAX_SAFE_INTEGER).map((h) => {
      const meta = loaded.issues.get(h.key)!;
      const { number, similarity, duplicate } = hitFields(h);
      return {
        number,
        title: meta.title,
        url: meta.url,
        state: meta.state,
        stateReason: meta.stateReason,
        similarity,
        duplicate,
      };
    });
  }

  /**
   * For each issue, the earlier issue it is likely a duplicate of, or null (memoised). A long list is worked
   * through a slice at a time, letting other requests in between (a first pass over 10,000 issues is seconds).
   */
  async duplicatesOf(repository: string, numbers: readonly number[]): Promise<Map<number, number | null>> {
    const loaded = await this.load(repository);
    const out = new Map<number, number | null>();
    let sinceYield = 0;
    for (const n of numbers) {
      let of = loaded.duplicates.get(n);
      if (of === undefined) {
        if (++sinceYield % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
        const features = loaded.index.featuresOf(n);
        const first = features ? loaded.index.query(features, 1, (key) => key < n, n)[0] : undefined;
        of = first?.duplicate ? first.key : null;
        loaded.duplicates.set(n, of);
      }
      out.set(n, of);
    }
    return out;
  }

  private apply(
    loaded: Loaded,
    r: {
      number: number;
      title: string;
      url: string;
      state: string;
      stateReason: string | null;
      body: string;
    },
  ) {
    loaded.index.set(r.number, loaded.index.features(r.title, r.body));
    loaded.issues.set(r.number, {
      title: r.title,
      url: r.url,
      state: r.state === "closed" ? "closed" : "open",
      stateReason: r.stateReason,
    });
    forgetFrom(loaded.duplicates, r.number);
  }

  private async read(key: string, since: Date | undefined) {
    const rows = await sql<{
      number: number;
      title: string;
      url: string;
      state: string;
      state_reason: string | null;
      body: string;
      indexed_at: Date | string;
    }>`SELECT number, title, url, state, state_reason, body, indexed_at FROM similar_issues
      WHERE repository = ${key}
      ${since ? sql`AND indexed_at >= ${new Date(since.getTime() - OVERLAP_MS)}` : sql``}`.execute(this.db);
    return rows.rows;
  }

  /** The repository's index, current (read whole the first time, then followed by `indexed_at`). */
  private async load(repository: string): Promise<Loaded> {
    const key = repositoryKey(repository);
    let loaded = this.cache.get(key);
    const now = this.now();
    if (loaded && now - loaded.checkedAt < CHECK_MS) return this.remember(key, loaded);
    if (loaded) {
      const head = (
        await sql<{ n: string | number; m: Date | string | null }>`
          SELECT count(*) AS n, max(indexed_at) AS m FROM similar_issues WHERE repository = ${key}`.execute(
          this.db,
        )
      ).rows[0]!;
      const latest = head.m ? new Date(head.m) : undefined;
      loaded.checkedAt = now;
      if (Number(head.n) === loaded.issues.size && latest?.getTime() === loaded.seen?.getTime())
        return this.remember(key, loaded);
      for (const r of await this.read(key, loaded.seen))
        this.apply(loaded, { ...r, stateReason: r.state_reason });
      loaded.seen = latest;
      // Something was deleted elsewhere: read the whole repository again.
      if (loaded.issues.size !== Number(head.n)) loaded = undefined;
    }
    if (!loaded) {
      loaded = {
        index: new SimilarIndex(this.method),
        issues: new Map(),
        seen: undefined,
        checkedAt: now,
        duplicates: new Map(),
      };
      let latest = 0;
      for (const r of await this.read(key, undefined)) {
        this.apply(loaded, { ...r, stateReason: r.state_reason });
        latest = Math.max(latest, new Date(r.indexed_at).getTime());
      }
      loaded.seen = latest ? new Date(latest) : undefined;
    }
    return this.remember(key, loaded);
  }

  private remember(key: string, loaded: Loaded): Loaded {
    this.cache.delete(key);
    this.cache.set(key, loaded);
    while (this.cache.size > this.kept) this.cache.delete(this.cache.keys().next().value!);
    return loaded;
  }
}

/** An issue changed: the memoised claims of it and of every later issue (it may be their candidate) go. */
function forgetFrom(duplicates: Map<number, number | null>, number: number): void {
  for (const n of duplicates.keys()) if (n >= number) duplicates.delete(n);
}

/** The text without NUL characters (PostgreSQL's text type cannot hold them). */
function withoutNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", " ") : text;
}
