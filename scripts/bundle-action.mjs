#!/usr/bin/env node
// Bundle the GitHub Action into one committed file, dist/index.js, which action.yml runs with node24.
//
// Deterministic: the same sources and lockfile give the same bytes (no timestamps, no absolute
// paths, no source maps), so CI can rebuild and compare (scripts/check-bundle.sh).
//
//   node scripts/bundle-action.mjs                 # writes dist/
//   node scripts/bundle-action.mjs --outdir DIR    # writes DIR/ instead (used by the check)
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const outFlag = args.indexOf("--outdir");
const outdir = outFlag >= 0 && args[outFlag + 1] ? resolve(args[outFlag + 1]) : join(root, "dist");

const result = await build({
  absWorkingDir: root,
  entryPoints: ["action/main.ts"],
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Some bundled dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __taskScorerCreateRequire } from "node:module";\nconst require = __taskScorerCreateRequire(import.meta.url);',
  },
  charset: "utf8",
  legalComments: "eof",
  sourcemap: false,
  minify: false,
  treeShaking: true,
  metafile: true,
  logLevel: "warning",
  write: false,
  outfile: join(outdir, "index.js"),
});

await mkdir(outdir, { recursive: true });
for (const file of result.outputFiles) await writeFile(file.path, file.contents);
// The bundle is ESM: say so next to it, so it runs whatever package.json surrounds it.
await writeFile(join(outdir, "package.json"), '{\n  "type": "module"\n}\n');

const bytes = result.outputFiles.reduce((n, f) => n + f.contents.length, 0);
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`bundled ${inputs} modules into ${join(outdir, "index.js")} (${(bytes / 1024).toFixed(0)} KiB)`);
