/**
 * The import rules of docs/architecture.md ("May import"), checked by `npm run lint:deps` in CI: at any depth
 * (`src/core/offline/x.ts` is `src/core` as much as `src/core/x.ts`), type imports included (they are cycles and
 * layering too, even though TypeScript erases them).
 */

/** Each folder and the folders (besides itself) it may import; keep in step with docs/architecture.md. */
const MAY_IMPORT = {
  "src/core": [],
  "src/config": ["src/core"],
  "src/llm": ["src/core", "src/config"],
  "src/storage": ["src/core", "src/config"],
  "src/repo-config": ["src/core"],
  "src/github": ["src/core", "src/repo-config"],
  "src/accounts": ["src/core", "src/config", "src/storage"],
  "src/fleet": ["src/core", "src/config", "src/storage"],
  "src/backlog": ["src/core", "src/config", "src/storage", "src/github"],
  "src/learning": ["src/core", "src/config", "src/storage", "src/github", "src/backlog"],
  "src/admin": ["src/core", "src/config", "src/storage", "src/accounts", "src/backlog"],
  "src/http": ["src/core", "src/config", "src/accounts", "src/backlog", "src/github"],
  "src/app": [
    "src/core",
    "src/config",
    "src/storage",
    "src/accounts",
    "src/fleet",
    "src/github",
    "src/repo-config",
    "src/http",
    "src/backlog",
    "src/learning",
  ],
  action: ["src/core", "src/config", "src/llm", "src/github", "src/repo-config"],
};

const asRegExp = (path) => path.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
const folderRules = Object.entries(MAY_IMPORT).map(([folder, allowed]) => ({
  name: `${folder.replace(/^src\//, "")}-imports`,
  comment: `${folder} may import ${allowed.length ? allowed.join(", ") : "nothing of the project"} (docs/architecture.md)`,
  severity: "error",
  from: { path: `^${asRegExp(folder)}/` },
  to: {
    path: "^(src|action)/",
    pathNot: `^(${[folder, ...allowed].map(asRegExp).join("|")})/`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import circle in src or action, type imports included (issue 36).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...folderRules,
    {
      name: "core-is-pure",
      comment: "src/core uses no package but zod: no I/O, no framework, no SDK.",
      severity: "error",
      from: { path: "^src/core/" },
      to: {
        dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"],
        pathNot: "node_modules/zod/",
      },
    },
    {
      name: "wiring-is-imported-by-no-one",
      comment:
        "The wiring (src/plugins, compose-service.ts, main.ts) is the top: only the entry points import it.",
      severity: "error",
      from: { path: "^(src|action)/", pathNot: "^src/(plugins/|compose-service\\.ts|main\\.ts|cli\\.ts)" },
      to: { path: "^src/(plugins/|compose-service\\.ts|main\\.ts)" },
    },
    {
      name: "no-tooling-in-the-product",
      comment: "scripts/, bench/ and test/ may import anything; src and action never import them.",
      severity: "error",
      from: { path: "^(src|action)/" },
      to: { path: "^(scripts|bench|test)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
