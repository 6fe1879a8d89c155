// jest globalSetup: compiles src/ once for every test that starts the server or a CLI as a process
// (test/helpers/server-build.ts), instead of a tsc build or a tsx start in each. esbuild transpiles file by file
// (the types are checked by `npm run typecheck`), into a folder of this run's own: the Node 20 and Node 24 runs
// (scripts/test-on-node24.sh) and other jest runs in the same tree never write into each other's build, nor into
// the `build/` that `npm start` compiles to. Removed again by build-once-teardown.js.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** build-test/<runtime>-<pid>: three levels below the root, where packageRoot() looks for package.json. */
const parent = join(root, "build-test");
export const BUILD_ENV = "TASK_SCORER_TEST_BUILD";
/** Test files that tests run as processes of their own, beside the sources they import. */
const TEST_SCRIPTS = ["test/storage/hold-data-dir.ts", "test/helpers/hostile-text.ts"];

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

export default async function buildOnce() {
  if (process.env[BUILD_ENV]) return; // an outer run made one (jest inside jest)
  const started = Date.now();
  mkdirSync(parent, { recursive: true });
  // Left behind by runs that were killed before their teardown.
  for (const name of readdirSync(parent)) {
    const pid = Number(/-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid))
      rmSync(join(parent, name), { recursive: true, force: true });
  }
  const out = join(parent, `node${process.versions.node.split(".")[0]}-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const files = readdirSync(join(root, "src"), { recursive: true, withFileTypes: true }).filter((f) =>
    f.isFile(),
  );
  const path = (f) => join(f.parentPath ?? f.path, f.name);
  await build({
    entryPoints: [
      ...files.filter((f) => f.name.endsWith(".ts")).map(path),
      ...TEST_SCRIPTS.map((s) => join(root, s)),
    ],
    outdir: out,
    outbase: root,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    sourcemap: true,
    logLevel: "warning",
  });
  // The word lists and other data the sources import or read beside themselves.
  for (const f of files.filter((f) => !f.name.endsWith(".ts"))) {
    const to = join(out, path(f).slice(root.length));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(path(f), to);
  }
  process.env[BUILD_ENV] = out;
  if (process.env.DEBUG_TEST_BUILD) console.log(`\ntest build in ${out} (${Date.now() - started} ms)`);
}
