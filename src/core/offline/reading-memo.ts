import type { Reading } from "../reading.schema.js";
import { RecentMap } from "../recent-map.js";
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
const readings = new RecentMap<Reading>(READINGS_KEPT);

/** Keep a reading already made (the offline judge reads every task it scores), so the report need not read it again. */
export function rememberReading(task: string, description: string, reading: Reading): void {
  if (task.length + description.length > READING_MAX_KEY_CHARS) return;
  const key = `${task}\u0000${description}`;
  // A task read again (its reading is the same: the reader is deterministic) keeps the reading it has.
  if (readings.get(key)) return;
  readings.set(key, frozen(reading));
}

/** Frozen through and through, and shared: its JSON is made once for every report that uses it. */
function frozen(reading: Reading): Reading {
  return shared(reading);
}

export function readingOf(task: string, description: string): Reading {
  if (task.length + description.length > READING_MAX_KEY_CHARS) return readReading(task, description);
  const key = `${task}\u0000${description}`;
  const remembered = readings.get(key);
  if (remembered) return remembered;
  const reading = frozen(readReading(task, description));
  readings.set(key, reading);
  return reading;
}
