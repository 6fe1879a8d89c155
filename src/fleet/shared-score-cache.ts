import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { PersonaVerdict, ScoreOptions, Scorer } from "../core/scorer.js";
import type { Db } from "../storage/tables.js";

export interface SharedScoreCacheOptions {
  /** How long verdicts are reused (a model's answer for the same text). */
  ttlMs: number;
  /** A claim older than this belongs to an instance that died: another takes it over. */
  staleClaimMs?: number;
  pollMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * The score cache and single-flight, shared by every instance through the database: the first instance
 * to see an input claims it (a row without verdicts) and scores it; the others, on any instance, wait for
 * its verdicts instead of paying the model again. A failed scoring removes its claim, so a waiter scores
 * it itself; a claim left by an instance that died is taken over once stale.
 */
export function sharedScoreCache(inner: Scorer, db: Db, options: SharedScoreCacheOptions): Scorer {
  const stale = options.staleClaimMs ?? 120_000;
  const poll = options.pollMs ?? 100;
  return {
    name: inner.name,
    async score(input, scoreOptions?: ScoreOptions): Promise<readonly PersonaVerdict[]> {
      const key = createHash("sha256")
        .update(JSON.stringify([inner.name, input.task, input.description]))
        .digest("hex");
      const deadline = Date.now() + (scoreOptions?.timeoutMs ?? 30_000);
      for (;;) {
        const row = await db
          .selectFrom("score_cache")
          .select([
            "verdicts",
            sql<boolean>`created_at > now() - (${Math.round(options.ttlMs)}::bigint * interval '1 millisecond')`.as(
              "fresh",
            ),
          ])
          .where("key", "=", key)
          .executeTakeFirst();
        if (row?.verdicts && row.fresh) return JSON.parse(row.verdicts) as PersonaVerdict[];
        const claimed = await sql<{ key: string }>`
          INSERT INTO score_cache (key, verdicts, created_at) VALUES (${key}, NULL, now())
          ON CONFLICT (key) DO UPDATE SET verdicts = NULL, created_at = now()
          WHERE (score_cache.verdicts IS NULL AND score_cache.created_at < now() - (${Math.round(stale)}::bigint * interval '1 millisecond'))
             OR (score_cache.verdicts IS NOT NULL AND score_cache.created_at < now() - (${Math.round(options.ttlMs)}::bigint * interval '1 millisecond'))
          RETURNING key`.execute(db);
        if (claimed.rows.length > 0) {
          let verdicts: readonly PersonaVerdict[];
          try {
            verdicts = await inner.score(input, scoreOptions);
          } catch (err) {
            await db
              .deleteFrom("score_cache")
              .where("key", "=", key)
              .where("verdicts", "is", null)
              .execute()
              .catch(() => undefined);
            throw err;
          }
          // The verdicts are paid for: a cache that cannot be written must not lose them.
          await db
            .updateTable("score_cache")
            .set({ verdicts: JSON.stringify(verdicts), created_at: sql`now()` })
            .where("key", "=", key)
            .execute()
            .catch(() => undefined);
          return verdicts;
        }
        // Another instance is scoring this input: wait for its verdicts, or score it ourselves at the end.
        if (Date.now() + poll >= deadline || scoreOptions?.signal?.aborted)
          return inner.score(input, scoreOptions);
        await sleep(poll, scoreOptions?.signal);
      }
    },
  };
}
