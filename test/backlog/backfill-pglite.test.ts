import { jest } from "@jest/globals";
import { backfillSuite } from "./backfill-suite.js";

// The backlog on the embedded database (PGlite, in memory): what `npm start` with DATA_DIR uses.
// PGlite runs in this process (WASM), several times slower than PostgreSQL and slower still on a loaded machine
// (a CI run beside other work took 20 s for one of these): each test may take a minute. Nothing here measures speed.
jest.setTimeout(60_000);
backfillSuite("pglite");
