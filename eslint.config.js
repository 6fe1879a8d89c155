import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // .scratch/: a developer's own notes and experiments, never committed (listed in .git/info/exclude).
  { ignores: ["dist/", "build/", "build-test/", "node_modules/", "coverage/", ".bench/", ".scratch/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
        performance: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The pages' scripts (try-it, board) run in the browser.
    files: ["web/**/*.js"],
    languageOptions: {
      globals: {
        document: "readonly",
        window: "readonly",
        location: "readonly",
        history: "readonly",
        URLSearchParams: "readonly",
      },
    },
  },
  {
    // CommonJS configuration files (.dependency-cruiser.cjs).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  {
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Core must stay pure: no I/O, no environment, no adapters. Which folders core (and every other folder) may
    // import is dependency-cruiser's to check, at any depth (.dependency-cruiser.cjs, `npm run lint:deps`).
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            "probot",
            "@actions/*",
            "@octokit/*",
            "fastify*",
            "openai",
            "node:fs",
            "node:http",
            "node:https",
            "node:net",
          ],
        },
      ],
      "no-restricted-globals": ["error", "process", "fetch"],
    },
  },
  {
    // Configuration sits below every feature: it reads the environment into typed sections and
    // depends on nothing but the pure core (checked by dependency-cruiser). Features import their section,
    // never the other way round; here, no SDK or framework either.
    files: ["src/config/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: ["probot", "@actions/*", "@octokit/*", "fastify*", "openai"],
        },
      ],
    },
  },
);
