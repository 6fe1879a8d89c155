/**
 * Two projects on one pool of two workers (CI has two cores; jest's default, cores - 1, ran every file in turn):
 * - unit: everything that runs in the test's own process (PGlite in memory, fastify's inject, the stand-in GitHub
 *   on loopback);
 * - system: files that start processes (the server, the CLIs, a browser) or need the machine's PostgreSQL and
 *   Redis. `npx jest --selectProjects unit` runs the quick part alone.
 * Every file that starts the server runs the one build made by test/setup/build-once.js (globalSetup), not a
 * compile of its own; an in-memory PGlite is opened once per file (test/setup/pglite-reuse.mjs).
 */
const system = [
  "test/deploy/",
  "test/faults/",
  "test/fleet/",
  "test/integration/",
  "test/web/",
  "test/accounts/admin-cli.test.ts",
  "test/accounts/plan-rate-limit.test.ts",
  "test/action/bundle.test.ts",
  "test/app/npm-start-app.test.ts",
  "test/app/output-problems.test.ts",
  "test/backlog/backfill-postgres.test.ts",
  "test/backlog/no-storage.test.ts",
  "test/cli/cli.test.ts",
  "test/config/fail-fast.test.ts",
  "test/config/service-config.test.ts",
  "test/core/golden-reading.test.ts",
  "test/core/offline-scorer.test.ts",
  "test/http/request-logger.test.ts",
  "test/learning/learning-postgres.test.ts",
  "test/security/hostile-repo-config.test.ts",
  "test/storage/embedded-database.test.ts",
  "test/storage/notifications.test.ts",
  "test/storage/prepared-statements.test.ts",
];
/** A folder (ending in /) or a file: as testMatch's globs, and as testPathIgnorePatterns' expressions. */
const systemGlobs = system.map((p) => `<rootDir>/${p}${p.endsWith("/") ? "**/*.test.ts" : ""}`);
const systemPatterns = system.map((p) => `<rootDir>/${p.replace(/\./g, "\\.")}${p.endsWith("/") ? "" : "$"}`);

/** What both projects share. */
const common = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: {
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  // The in-memory PGlite opened once per file, and emptied between uses.
  setupFilesAfterEnv: ["<rootDir>/test/setup/per-file.ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        // keepImportAttributes: the JSON word lists are imported `with { type: "json" }`, as Node requires.
        jsc: {
          parser: { syntax: "typescript" },
          target: "es2022",
          experimental: { keepImportAttributes: true },
        },
        module: { type: "es6" },
      },
    ],
  },
};

/** @type {import('jest').Config} */
export default {
  maxWorkers: 2,
  // A guard against a hung test, not a speed check: on a machine shared with other jobs (load average 7) a cold start
  // of the App with its database, 6 s alone, passed 20 s.
  testTimeout: 60000,
  globalSetup: "<rootDir>/test/setup/build-once.js",
  globalTeardown: "<rootDir>/test/setup/build-once-teardown.js",
  // The longest files first when jest has no durations of its own for them (a new clone or machine).
  testSequencer: "<rootDir>/test/setup/heaviest-first.js",
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/test/**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", ...systemPatterns],
    },
    { ...common, displayName: "system", testMatch: systemGlobs },
  ],
};
