import type { Reading } from "../reading.schema.js";
import { shared } from "../shared-json.js";
import { readReading } from "./read-reading.js";

/**
 * The reading of recent tasks, remembered: the reader is deterministic, and a repeated task (a redelivered
 * webhook, an unchanged issue scored again, the memoized offline scorer's hits) would otherwise be read again
 * for every report, and a task the offline judge has just read would be read twice. Bounded like the offline
 * scorer's memo. A remembered reading is frozen and shared by the reports that use it (a copy for each report
 * cost more than the lookup), so no report can change another's.
 */
const READINGS_KEPT = 2000;
const READING_MAX_KEY_CHARS = 8192;
/**
 * Each reading with when it was last put at the back (a count of puts). A use moves it back only once it has drifted
 * into the older half, as the offline memo does (memoize-scorer.ts): a delete and a set of the same key on every use
 * rebuilt a near-full map's table every few uses.
 */
const readings = new Map<string, { reading: Reading; put: number }>();
let puts = 0;

function keep(key: string, reading: Reading): void {
  if (readings.size >= READINGS_KEPT) readings.delete(readings.keys().next().value!);
  readings.set(key, { reading, put: ++puts });
}

/** A remembered reading, moved to the back where it has drifted into the older half. */
function recall(key: string): Reading | undefined {
  const kept = readings.get(key);
  if (!kept) return undefined;
  if (puts - kept.put >= READINGS_KEPT / 2) {
    readings.delete(key);
    kept.put = ++puts;
    readings.set(key, kept);
  }
  return kept.reading;
}

/** Keep a reading already made (the offline judge reads every task it scores), so the report need not read it again. */
export function rememberReading(task: string, description: string, reading: Reading): void {
  if (task.length + description.length > READING_MAX_KEY_CHARS) return;
  const key = `${task}\u0000${description}`;
  // A task read again (its reading is the same: the reader is deterministic) keeps the reading it has.
  if (recall(key)) return;
  keep(key, frozen(reading));
}

/** Frozen through and through, and shared: its JSON is made once for every report that uses it. */
function frozen(reading: Reading): Reading {
  return shared(reading);
}

export function readingOf(task: string, description: string): Reading {
  if (task.length + description.length > READING_MAX_KEY_CHARS) return readReading(task, description);
  const key = `${task}\u0000${description}`;
  const remembered = recall(key);
  if (remembered) return remembered;
  const reading = frozen(readReading(task, description));
  keep(key, reading);
  return reading;
}
