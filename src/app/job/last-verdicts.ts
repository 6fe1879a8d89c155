/**
 * The text's verdicts, kept per pull request for new commits. A push changes the change, not the text: its job
 * re-reads the change and edits the report, with the verdicts the text last got here (a model's next verdict on
 * the same text may differ, and a push is not a reason to ask it again). Kept in this process, a bounded number
 * of subjects, newest last; a job on another instance, or after a restart, scores the text again (the scorer's
 * own caches, which key on the text alone, usually answer).
 */
import type { PersonaVerdict, Scorer } from "../../core/scorer.js";

export const LAST_VERDICTS_MAX = 2000;

export class LastVerdicts {
  private readonly kept = new Map<string, readonly PersonaVerdict[]>();

  constructor(private readonly max: number = LAST_VERDICTS_MAX) {}

  /**
   * The scorer for one job on `key` (subject, text and scorer): every score it makes is kept; with `reuse`
   * (new commits only), the kept verdicts answer instead of the scorer when there are some.
   */
  scorer(inner: Scorer, key: string, reuse: boolean): Scorer {
    return {
      name: inner.name,
      score: async (input, options) => {
        const kept = reuse ? this.kept.get(key) : undefined;
        if (kept) return kept;
        const verdicts = await inner.score(input, options);
        this.kept.delete(key);
        this.kept.set(key, verdicts);
        if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
        return verdicts;
      },
    };
  }
}

/** One per job queue, so services in one process (tests, benchmarks) keep their own. */
const byQueue = new WeakMap<object, LastVerdicts>();

export function lastVerdictsOf(queue: object): LastVerdicts {
  let kept = byQueue.get(queue);
  if (!kept) byQueue.set(queue, (kept = new LastVerdicts()));
  return kept;
}
