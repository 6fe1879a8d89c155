import { afterAll, jest } from "@jest/globals";
import { closeKeptPglites, reusingPglite } from "./pglite-reuse.js";

/**
 * Runs before every test file (setupFilesAfterEnv). The in-memory PGlite is opened once per file and emptied
 * between uses (./pglite-reuse.ts); the instances kept are closed for real after the file. The package's
 * CommonJS build serves as the real one (requireActual), as a mock cannot import the module it replaces.
 */
jest.unstable_mockModule("@electric-sql/pglite", () =>
  reusingPglite(jest.requireActual<typeof import("@electric-sql/pglite")>("@electric-sql/pglite")),
);

afterAll(async () => {
  await closeKeptPglites();
});
