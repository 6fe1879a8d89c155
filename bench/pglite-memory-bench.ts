import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileForNode } from "./compile-for-node.js";

/** The server as `npm start` runs it (compiled JavaScript, the same heap cap), from .bench/. */
const compiledMain = () => compileForNode(new URL("../src/main.ts", import.meta.url), "main.mjs");

async function peakRss(main: string, dataDir: string): Promise<number> {
  const child = spawn(process.execPath, ["--max-old-space-size=256", main], {
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", AUTH: "keys", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
      child.stdout!.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    // Keyed requests touch the database (an unknown key is looked up).
    for (let i = 0; i < 20; i++)
      await fetch(`${url}/score-task`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer tsk_${"0".repeat(30)}000000` },
        body: JSON.stringify({ task: "Add CSV export" }),
      });
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** Peak RSS of the whole server with keys on the embedded database: on a new folder, then reopening it. */
export async function runPgliteMemoryBench(): Promise<Record<string, number>> {
  const main = await compiledMain();
  const dir = mkdtempSync(join(tmpdir(), "ts-pglite-bench-"));
  try {
    const first = await peakRss(main, join(dir, "data"));
    const restart = await peakRss(main, join(dir, "data"));
    return { "pglite.first_start_peak_rss_mb": first, "pglite.restart_peak_rss_mb": restart };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
