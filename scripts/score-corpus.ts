// Prints the offline scorer's verdicts for the shared corpus: a quick look while tuning signals.
import { readFileSync } from "node:fs";
import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { evaluateApproval } from "../src/core/approval.js";

const path = process.argv[2] ?? "../shared/corpus/real-issues.jsonl";
const verbose = process.argv.includes("-v");
for (const line of readFileSync(path, "utf8").split("\n").filter(Boolean)) {
  const item = JSON.parse(line) as { id: string; kind: string; task: string; description: string | null };
  const verdicts = scoreOffline({ task: item.task, description: item.description ?? "" });
  const scores = verdicts.map((v) => v.score);
  const avg = scores.reduce((a, b) => a + b, 0) / 5;
  const ok = evaluateApproval(scores).approved;
  console.log(
    `${item.id} ${item.kind.padEnd(8)} ${scores.join(" ")} avg=${avg.toFixed(1)} ${ok ? "APPROVED" : "        "} ${item.task.slice(0, 60)}`,
  );
  if (verbose) for (const v of verdicts) console.log(`    ${v.persona}: ${v.reasoning}`);
}
