import { backfillSuite } from "./backfill-suite.js";

// The backlog on the embedded database (PGlite, in memory): what `npm start` with DATA_DIR uses.
backfillSuite("pglite");
