import { learningSuite } from "./learning-suite.js";

// Learning on the embedded database (PGlite, in memory): what `npm start` with DATA_DIR uses.
learningSuite("pglite");
