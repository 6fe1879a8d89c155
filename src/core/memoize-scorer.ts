import { calibrationKey } from "./offline/calibration.js";
import { RecentMap } from "./recent-map.js";
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
  const memo = new RecentMap<readonly PersonaVerdict[]>(options.maxEntries);
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
        return hit;
      }
      const verdicts = await scorer.score(input, scoreOptions);
      memo.set(key, verdicts);
      return verdicts;
    },
  };
}
