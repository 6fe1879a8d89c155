import { calibrationKey } from "./offline/calibration.js";
import type { PersonaVerdict, Scorer } from "./scorer.js";
import type { TaskInput } from "./task-request.schema.js";

export interface MemoOptions {
  /** Entries kept; the least recently used goes first (used: hit within the last half of the memo's puts). */
  maxEntries: number;
  /** Longer inputs are scored every time: keys that large would cost more memory than they save. */
  maxKeyChars: number;
}

/**
 * Remembers a deterministic scorer's verdicts for recent inputs. The offline scorer returns the same
 * verdicts for the same text (the report's timestamp is made later, by the core), so a repeated task
 * (a redelivered webhook, a CI job re-scoring an unchanged issue) is answered without scoring again.
 * Only for deterministic scorers: the LLM scorer has its own cache with a TTL.
 */
/** A memoized scorer counts its hits, for the metrics (`task_scorer_cache_hits_total{cache="offline"}`). */
export interface MemoizedScorer extends Scorer {
  readonly stats: { hits: number };
}

export function memoizeScorer(
  scorer: Scorer,
  options: MemoOptions = { maxEntries: 2000, maxKeyChars: 8192 },
): MemoizedScorer {
  // Each entry keeps when it was last put at the back (a count of puts). A hit moves it back only once it has
  // drifted into the older half: moving it on every hit (a delete and a set of the same key) filled the map's table
  // with deleted slots, rebuilt in the old generation every few hundred requests, and cost a full collection every
  // 20 to 25 young ones on the one-word REST path. An entry hit at least once per half a memo's puts is never
  // evicted, as with a strict order of use.
  const memo = new Map<string, { verdicts: readonly PersonaVerdict[]; put: number }>();
  let puts = 0;
  const stats = { hits: 0 };
  return {
    name: scorer.name,
    stats,
    // The wrapped scorer's own counts pass through; the memo adds its hits.
    scorerStats: () => {
      const inner = scorer.scorerStats?.() ?? {};
      return { ...inner, cacheHits: { ...inner.cacheHits, offline: stats.hits } };
    },
    async score(input: TaskInput, scoreOptions) {
      if (input.task.length + input.description.length > options.maxKeyChars)
        return scorer.score(input, scoreOptions);
      const key = `${input.task}\u0000${input.description}\u0000${calibrationKey(scoreOptions?.calibration)}`;
      const hit = memo.get(key);
      if (hit) {
        stats.hits++;
        if (puts - hit.put >= options.maxEntries / 2) {
          memo.delete(key);
          hit.put = ++puts;
          memo.set(key, hit);
        }
        return hit.verdicts;
      }
      const verdicts = await scorer.score(input, scoreOptions);
      memo.set(key, { verdicts, put: ++puts });
      if (memo.size > options.maxEntries) memo.delete(memo.keys().next().value!);
      return verdicts;
    },
  };
}
