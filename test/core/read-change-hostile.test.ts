import { spawn } from "node:child_process";
import { describe, expect, it } from "@jest/globals";
import { HOSTILE_DIFFS } from "../helpers/hostile-diffs.js";

describe("reading a hostile diff", () => {
  // Diffs at the request's 3,000,000-character limit shaped to make a parser go quadratic: one 3 MB line, 100,000
  // empty hunks, headers without hunks, 50,000 files, a hunk promising a trillion lines, a 3 MB quoted path.
  // They run in a child process with a deadline far above their cost (under a second for all of them on an
  // idle machine, against 20 s), because a runaway loop blocks this process and no test timeout could stop
  // it. Their cost is measured by `npm run bench` (change.hostile_3MB_worst_ms and its linearity).
  it("reads every one of them, and none runs away", async () => {
    const script = `
      import { readChange } from "./src/core/change/read-change.js";
      import { HOSTILE_DIFFS } from "./test/helpers/hostile-diffs.js";
      for (const [name, make] of Object.entries(HOSTILE_DIFFS)) {
        const change = readChange(make());
        console.log(JSON.stringify({ name, files: change.files, size: change.size }));
      }
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: new URL("../..", import.meta.url),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 18_000);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearTimeout(timer);
    const read = out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { name: string; files: number; size: string });
    expect({ names: read.map((r) => r.name), err }).toEqual({ names: Object.keys(HOSTILE_DIFFS), err: "" });
    const files = Object.fromEntries(read.map((r) => [r.name, r.files]));
    // What each is, read right: one file for one long line, 50,000 files for 50,000 (cut at 3 MB).
    expect(files).toMatchObject({ one_line_in_hunk: 1, one_line_no_newline: 0, empty_hunks_100k: 1 });
    expect(files.files_50k).toBeGreaterThan(40_000);
    expect(code).toBe(0);
  });
});
