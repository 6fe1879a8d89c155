/** @type {import('jest').Config} */
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
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
  testTimeout: 20000,
};
