import { createHash } from "node:crypto";
import { calibrationKey } from "../core/offline/calibration.js";
import type { PersonaVerdict, ScoreOptions, Scorer } from "../core/scorer.js";
import { ScoreCacheStore } from "../storage/score-cache-store.js";
import type { Db } from "../storage/tables.js";

export interface SharedScoreCacheOptions {
  /** How long verdicts are reused (a model's answer for the same text). */
  ttlMs: number;
  /** A claim older than this belongs to an instance that died: another takes it over. */
  staleClaimMs?: number;
  pollMs?: number;
}

/** What the shared cache needs from its storage (ScoreCacheStore in the database; a fake in tests). */
export type ScoreClaims = Pick<ScoreCacheStore, "fresh" | "claim" | "release" | "fill">;

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
  const store = new ScoreCacheStore(db, {
    ttlMs: options.ttlMs,
    staleClaimMs: options.staleClaimMs ?? 120_000,
  });
  return sharedScoreCacheOn(inner, store, options);
}

/** The same cache over any claims storage. */
export function sharedScoreCacheOn(
  inner: Scorer,
  claims: ScoreClaims,
  options: Pick<SharedScoreCacheOptions, "pollMs">,
): Scorer {
  const poll = options.pollMs ?? 100;
  return {
    name: inner.name,
    async score(input, scoreOptions?: ScoreOptions): Promise<readonly PersonaVerdict[]> {
      const key = createHash("sha256")
        .update(
          JSON.stringify([
            inner.name,
            input.task,
            input.description,
            ...(calibrationKey(scoreOptions?.calibration) ? [calibrationKey(scoreOptions?.calibration)] : []),
          ]),
        )
        .digest("hex");
      const deadline = Date.now() + (scoreOptions?.timeoutMs ?? 30_000);
      for (;;) {
        const cached = await claims.fresh(key);
        if (cached) return cached;
        if (await claims.claim(key)) {
          let verdicts: readonly PersonaVerdict[];
          try {
            verdicts = await inner.score(input, scoreOptions);
          } catch (err) {
            await claims.release(key).catch(() => undefined);
            throw err;
          }
          // The verdicts are paid for: a cache that cannot be written must not lose them.
          await claims.fill(key, verdicts).catch(() => undefined);
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
