import { learningSuite } from "./learning-suite.js";
import { DATABASE_URL } from "../helpers/postgres.js";
import { describeUnless } from "../helpers/skip.js";

// Learning on the real PostgreSQL of DATABASE_URL (`.ci/run` sets it): what a fleet shares.
describeUnless(
  DATABASE_URL
    ? undefined
    : "DATABASE_URL is not set: learning on PostgreSQL is not tested here (.ci/run sets it).",
  "on PostgreSQL",
  () => learningSuite("postgres"),
);
