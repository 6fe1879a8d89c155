import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServerProcess, type NpmStart } from "./npm-start.js";

/**
 * The build every test that runs the service as a process shares: src/ compiled once per jest run by
 * test/setup/build-once.js (globalSetup) into build-test/<runtime>-<pid>/. Starting from it costs a plain
 * `node` start: no tsc per test (as `npm start` does), no tsx compiling the sources at every start.
 */
export const ROOT = new URL("../..", import.meta.url).pathname;

export function testBuildDir(): string {
  const dir = process.env.TASK_SCORER_TEST_BUILD;
  if (!dir)
    throw new Error(
      "no test build: jest's globalSetup (test/setup/build-once.js) makes it; run through jest",
    );
  return dir;
}

/** A compiled entry point, e.g. `builtFile("src/admin-cli.ts")` → build-test/…/src/admin-cli.js. */
export function builtFile(source: string): string {
  return join(testBuildDir(), source.replace(/\.ts$/, ".js"));
}

/** Node's flags in `npm run start:prod` (the heap limit), so a test starts the server as production does. */
export function startProdNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = (pkg.scripts["start:prod"] ?? "").split(/\s+/);
  return words.slice(1).filter((w) => w.startsWith("--"));
}

/** node + the arguments that run `source` from the test build, with start:prod's flags when it is the server. */
export function builtCommand(source: string, ...args: string[]): [string, string[]] {
  const flags = source === "src/main.ts" ? startProdNodeFlags() : [];
  return [process.execPath, [...flags, builtFile(source), ...args]];
}

/**
 * The server as `npm run start:prod` runs it (node, the heap limit, main.js), from the test build: what
 * `npmStart` does without compiling first. Same environment rules as `startServerProcess`.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  startTimeoutMs = 30_000,
): Promise<NpmStart & Awaited<ReturnType<typeof startServerProcess>>> {
  const [node, args] = builtCommand("src/main.ts");
  return startServerProcess(node, args, env, startTimeoutMs);
}
