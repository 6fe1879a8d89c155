import { sql } from "kysely";
import type { PersonaVerdict } from "../core/scorer.js";
import type { Db } from "./tables.js";

export interface ScoreCacheStoreOptions {
  /** How long verdicts are reused. */
  ttlMs: number;
  /** A claim older than this belongs to an instance that died: another may take it over. */
  staleClaimMs: number;
}

/**
 * The score_cache table: verdicts by input key, and claims (a row without verdicts: one instance is
 * scoring that input). Freshness is judged by the database's clock, the one every instance shares.
 */
export class ScoreCacheStore {
  constructor(
    private readonly db: Db,
    private readonly options: ScoreCacheStoreOptions,
  ) {}

  /** The verdicts stored for this key while still fresh; undefined when absent, stale or only claimed. */
  async fresh(key: string): Promise<readonly PersonaVerdict[] | undefined> {
    const row = await this.db
      .selectFrom("score_cache")
      .select([
        "verdicts",
        sql<boolean>`created_at > now() - (${Math.round(this.options.ttlMs)}::bigint * interval '1 millisecond')`.as(
          "fresh",
        ),
      ])
      .where("key", "=", key)
      .executeTakeFirst();
    return row?.verdicts && row.fresh ? (JSON.parse(row.verdicts) as PersonaVerdict[]) : undefined;
  }

  /**
   * Claim the key for scoring: true when this caller now holds it (no row, a stale claim, or expired
   * verdicts), false while another instance's claim or fresh verdicts stand.
   */
  async claim(key: string): Promise<boolean> {
    const claimed = await sql<{ key: string }>`
      INSERT INTO score_cache (key, verdicts, created_at) VALUES (${key}, NULL, now())
      ON CONFLICT (key) DO UPDATE SET verdicts = NULL, created_at = now()
      WHERE (score_cache.verdicts IS NULL AND score_cache.created_at < now() - (${Math.round(this.options.staleClaimMs)}::bigint * interval '1 millisecond'))
         OR (score_cache.verdicts IS NOT NULL AND score_cache.created_at < now() - (${Math.round(this.options.ttlMs)}::bigint * interval '1 millisecond'))
      RETURNING key`.execute(this.db);
    return claimed.rows.length > 0;
  }

  /** Give up a claim without verdicts, so a waiter scores the input itself. */
  async release(key: string): Promise<void> {
    await this.db.deleteFrom("score_cache").where("key", "=", key).where("verdicts", "is", null).execute();
  }

  /** Store the verdicts of a claimed key; their freshness starts now. */
  async fill(key: string, verdicts: readonly PersonaVerdict[]): Promise<void> {
    await this.db
      .updateTable("score_cache")
      .set({ verdicts: JSON.stringify(verdicts), created_at: sql`now()` })
      .where("key", "=", key)
      .execute();
  }
}
