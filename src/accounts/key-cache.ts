import type { NoticeHandlers } from "../storage/notifications.js";

/** The channel on which a key's or an account's change is announced to every instance. */
export const KEY_NOTICES = "task_scorer_keys";

/** What a notice names: one key, or every key of one account (a plan change). Absent means everything. */
export interface KeyNotice {
  key?: string;
  account?: string;
}

interface Entry<Row> {
  row: Row;
  keyId: string;
  accountId: string;
  cachedAt: number;
}

/**
 * Verified keys kept in memory, so that a request with a known key costs no database round trip. Correct only
 * while change notices arrive: it caches nothing until its listener is listening, drops everything when the
 * listener goes down or comes back (it cannot know what it missed), and drops a key's or an account's entries
 * when a notice names them.
 *
 * A lookup that raced a change is never cached: every notice and reset moves the generation on, and a row read
 * under an older generation is not kept (it may predate the revocation whose notice just arrived).
 */
export class KeyCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();
  private generation = 0;
  private active = false;

  constructor(
    private readonly options: { maxEntries?: number; maxAgeMs?: number; now?: () => number } = {},
  ) {}

  /** Pass to the notice listener. */
  readonly handlers: NoticeHandlers = {
    onNotice: (payload) => this.onNotice(payload),
    onReset: (listening) => {
      this.generation++;
      this.entries.clear();
      this.active = listening;
    },
  };

  get size(): number {
    return this.entries.size;
  }

  /** Take before reading from the database; give to `set` with the row read. */
  ticket(): number {
    return this.generation;
  }

  get(hash: string): Row | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    // A bound on how long a row is trusted without a notice, in case one is ever lost in transit.
    if (this.now() - e.cachedAt > (this.options.maxAgeMs ?? 60_000)) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.row;
  }

  set(hash: string, row: Row, ids: { keyId: string; accountId: string }, ticket: number): void {
    if (!this.active || ticket !== this.generation) return;
    if (this.entries.size >= (this.options.maxEntries ?? 10_000)) {
      // The oldest entry goes (a Map keeps insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { row, ...ids, cachedAt: this.now() });
  }

  private onNotice(payload: string): void {
    this.generation++;
    let notice: KeyNotice = {};
    try {
      notice = JSON.parse(payload) as KeyNotice;
    } catch {
      // Unreadable: treat it as "everything changed".
    }
    if (!notice.key && !notice.account) {
      this.entries.clear();
      return;
    }
    for (const [hash, e] of this.entries)
      if (e.keyId === notice.key || e.accountId === notice.account) this.entries.delete(hash);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
