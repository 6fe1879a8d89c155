import { calibrationKey } from "../core/offline/calibration.js";
import type { PersonaVerdict, ScoreOptions, Scorer } from "../core/scorer.js";
import type { TaskInput } from "../core/task-request.schema.js";

interface Flight {
  promise: Promise<readonly PersonaVerdict[]>;
  controller: AbortController;
  /** Callers still interested that could give up (callers without a signal never do). */
  cancellable: number;
  /** A caller without a signal waits to the end, so the flight is never cancelled. */
  pinned: boolean;
}

/**
 * Identical concurrent requests share one report: the second waits for the first's scoring instead
 * of scoring again. The shared work is cancelled only when every caller has given up, and it runs
 * under the first caller's deadline. Finished reports are not kept: that is a cache's job.
 */
export function singleFlightScorer<S extends Scorer>(scorer: S): Scorer {
  /** Reports being made now, by input. */
  const flights = new Map<string, Flight>();
  return {
    name: scorer.name,
    score(input: TaskInput, options: ScoreOptions = {}): Promise<readonly PersonaVerdict[]> {
      const key = `${input.task}\u0000${input.description}\u0000${calibrationKey(options.calibration)}`;
      let flight = flights.get(key);
      if (!flight) {
        const controller = new AbortController();
        const made: Flight = { controller, cancellable: 0, pinned: false, promise: Promise.resolve([]) };
        made.promise = scorer
          .score(input, {
            signal: controller.signal,
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
            ...(options.calibration ? { calibration: options.calibration } : {}),
          })
          .finally(() => flights.delete(key));
        flights.set(key, made);
        flight = made;
      }
      const shared = flight;
      const signal = options.signal;
      if (!signal) shared.pinned = true;
      else {
        shared.cancellable++;
        const leave = () => {
          shared.cancellable--;
          if (shared.cancellable === 0 && !shared.pinned) shared.controller.abort();
        };
        if (signal.aborted) leave();
        else signal.addEventListener("abort", leave, { once: true });
      }
      return shared.promise;
    },
  };
}
