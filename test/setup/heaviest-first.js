// jest testSequencer: the files known to take longest start first, so that no worker is left running one of
// them alone at the end. Jest orders files by their last run's duration when its cache has them (cacheDirectory,
// under /tmp), and otherwise by file size: on a new machine or a new clone that put the longest files, a few
// lines each (backfill-pglite.test.ts runs the whole shared backfill suite from 8 lines; production-start.test.ts
// starts the production server several times from 8 KB), last or in the middle, and the run ended with one of
// them on one worker while the other had nothing to do. Without a cached duration, these go first, in this order
// (longest first, measured with `jest --json`, perfStats end - start), then every other file in jest's order;
// with the durations cached, jest's own order is kept.
import Sequencer from "@jest/test-sequencer";

const HEAVIEST = [
  "test/deploy/production-start.test.ts",
  "test/faults/npm-start-tenant-safety.test.ts",
  "test/core/golden-reading.test.ts",
  "test/accounts/admin-cli.test.ts",
  "test/storage/embedded-database.test.ts",
  "test/app/durable-app.test.ts",
  "test/backlog/backfill-pglite.test.ts",
  "test/learning/learning-pglite.test.ts",
  "test/learning/fit-calibration.test.ts",
  "test/app/duplicate-label.test.ts",
  "test/backlog/backfill-postgres.test.ts",
  "test/learning/learning-postgres.test.ts",
  "test/accounts/plan-rate-limit.test.ts",
  "test/app/outputs.test.ts",
  "test/action/bundle.test.ts",
  "test/web/registration.test.ts",
  "test/http/sign-in.test.ts",
  "test/accounts/plan-rate-limit-api.test.ts",
];

const rank = (path) => {
  const at = HEAVIEST.findIndex((p) => path.endsWith(`/${p}`));
  return at < 0 ? HEAVIEST.length : at;
};

export default class HeaviestFirst extends (Sequencer.default ?? Sequencer) {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.every((t) => t.duration != null)) return sorted;
    // Array.prototype.sort is stable: the files not listed keep jest's order.
    return [...sorted].sort((a, b) => rank(a.path) - rank(b.path));
  }
}
