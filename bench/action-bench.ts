import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The Action as the runner starts it: `node dist/index.js` with INPUT_* variables, offline scorer,
 * no comment. Wall time per run, process start included (the "under a second" of the Action issue).
 */
export async function runActionBench(options: { runs: number }): Promise<Record<string, number>> {
  const script = fileURLToPath(new URL("../dist/index.js", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "action-bench-"));
  const times: number[] = [];
  let outputsOk = 0;
  for (let i = 0; i < options.runs; i++) {
    const output = join(dir, `output-${i}`);
    const summary = join(dir, `summary-${i}`);
    writeFileSync(output, "");
    writeFileSync(summary, "");
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [script],
        {
          env: {
            PATH: process.env.PATH,
            INPUT_TASK: "Add Stripe checkout",
            INPUT_DESCRIPTION: "Let free users upgrade to Pro",
            INPUT_COMMENT: "false",
            INPUT_SCORER: "offline",
            GITHUB_OUTPUT: output,
            GITHUB_STEP_SUMMARY: summary,
          },
        },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    times.push(performance.now() - t0);
    const out = readFileSync(output, "utf8");
    if (["avg-score", "min-score", "max-score", "approved", "report"].every((k) => out.includes(k)))
      outputsOk++;
  }
  times.sort((a, b) => a - b);
  return {
    "action.runs": options.runs,
    "action.run_ms_median": Math.round(times[Math.floor(times.length / 2)]!),
    "action.run_ms_max": Math.round(times[times.length - 1]!),
    "action.runs_with_all_outputs": outputsOk,
  };
}
