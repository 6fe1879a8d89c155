import { backfillSuite } from "./backfill-suite.js";
import { DATABASE_URL } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip.js";

// The backlog on the real PostgreSQL of DATABASE_URL (`.ci/run` sets it): what a fleet uses.
describeUnless(
  DATABASE_URL
    ? undefined
    : "DATABASE_URL is not set: the backlog on PostgreSQL is not tested here (.ci/run sets it).",
  "on PostgreSQL",
  () => backfillSuite("postgres"),
);
