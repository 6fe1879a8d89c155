import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Helpers to run the bundled Action the way the runner does: `node <runs.main>` with inputs as
 * `INPUT_<NAME>` variables, the event in a file, and files for outputs and the job summary.
 */

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples/api.github.com/index.json") as {
  name: string;
  examples: Record<string, any>[];
}[];

/** A real webhook payload from @octokit/webhooks-examples (Codertocat/Hello-World), patched. */
export function examplePayload(
  event: string,
  action?: string,
  patch: (p: any) => void = () => {},
): Record<string, any> {
  const found = examples.find((e) => e.name === event)?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no example for ${event}.${action ?? ""}`);
  const copy = structuredClone(found);
  patch(copy);
  return copy;
}

/** `runs.main` as action.yml declares it. */
export function runsMain(actionYml: string): string {
  const match = /^runs:\s*\n(?:[ \t]+.*\n)*?[ \t]+main:\s*"?([^"\n]+)"?/m.exec(actionYml);
  if (!match?.[1]) throw new Error("action.yml has no runs.main");
  return match[1].trim();
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks (and plain `name=value` lines) as a record. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
      out[name!] = value.join("\n");
    } else if (line.includes("=")) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return out;
}

export interface RunOptions {
  /** The node binary. */
  node: string;
  /** Absolute path of the script to run (the bundle). */
  script: string;
  /** Action inputs by name, e.g. { task: "...", "fail-on-reject": "true" }. */
  inputs?: Record<string, string>;
  event?: { name: string; payload: Record<string, unknown> };
  env?: Record<string, string>;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  ms: number;
}

/** Spawn the Action asynchronously (the fake GitHub API lives in this process and must keep answering). */
export async function runAction(options: RunOptions): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "task-scorer-action-"));
  const outputFile = join(dir, "output");
  const summaryFile = join(dir, "summary");
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    GITHUB_ACTIONS: "true",
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: dir,
  };
  if (options.event) {
    const eventFile = join(dir, "event.json");
    writeFileSync(eventFile, JSON.stringify(options.event.payload));
    env.GITHUB_EVENT_NAME = options.event.name;
    env.GITHUB_EVENT_PATH = eventFile;
  }
  for (const [name, value] of Object.entries(options.inputs ?? {})) {
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  }
  Object.assign(env, options.env);

  const started = performance.now();
  const child = spawn(options.node, [options.script], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c) => resolve(c));
  });
  const ms = performance.now() - started;
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputFile, "utf8")),
    summary: existsSync(summaryFile) ? readFileSync(summaryFile, "utf8") : "",
    ms,
  };
}
