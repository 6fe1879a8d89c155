/**
 * `node --import tsx scripts/eval/kind-claim-bar.ts`: how sure the reader must be of a task's kind before a
 * persona's reasoning names it ("A bug report …"). A hedged claim is still a claim, so the bar is the lowest
 * confidence at which the named kind is right at least 90% of the time on held-out data:
 *
 * - the NLBSE'24 training split (never the test split), by 5-fold cross-validation grouped by repository: the
 *   kind model is fitted on the other folds' repositories and read on the held-out one;
 * - the labelled corpus's development part (never the holdout), read by the shipped model, which was not
 *   fitted on it.
 *
 * Prints precision, and how many tasks are named, per kind and threshold, then each kind's bar (KIND_CLAIM_BAR in
 * src/core/offline/reasoning.ts).
 */
import { createHash } from "node:crypto";
import { readReading } from "../../src/core/offline/read-reading.js";
import { fitKind } from "./fit-kind.js";
import { development } from "./holdout.js";
import { loadLabeled } from "./labeled-corpus.js";
import { loadNlbse } from "./nlbse.js";

const KINDS = ["bug", "feature", "question"] as const;
const THRESHOLDS = [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const TARGET = 0.9;

interface Read {
  truth: string;
  kind: string;
  confidence: number;
}

function nlbseGrouped(folds = 5): Read[] | undefined {
  const rows = loadNlbse("train");
  if (!rows) return undefined;
  const fold = (repo: string) => createHash("sha256").update(repo).digest()[0]! % folds;
  const reads: Read[] = [];
  for (let f = 0; f < folds; f++) {
    const held = rows.filter((x) => fold(x.repo) === f);
    if (held.length === 0) continue;
    const model = fitKind(rows.filter((r) => fold(r.repo) !== f));
    for (const r of held) {
      const reading = readReading(r.title.slice(0, 256), r.body.slice(0, 65536), undefined, model);
      reads.push({ truth: r.label, kind: reading.kind, confidence: reading.kindConfidence });
    }
  }
  return reads;
}

function corpus(): Read[] | undefined {
  const rows = loadLabeled();
  if (!rows) return undefined;
  return development(rows)
    .filter((r) => (KINDS as readonly string[]).includes(r.kind))
    .map((r) => {
      const reading = readReading(r.task, r.description ?? "");
      return { truth: r.kind, kind: reading.kind, confidence: reading.kindConfidence };
    });
}

const sets = [
  ["NLBSE'24 train, 5 folds grouped by repository", nlbseGrouped()],
  ["labelled corpus, development part (shipped model)", corpus()],
] as const;
const bars: Record<string, number[]> = { bug: [], feature: [], question: [] };
for (const [name, reads] of sets) {
  if (!reads) continue;
  console.log(`\n${name} (${reads.length} tasks)\n`);
  console.log(`| confidence ≥ | ${KINDS.map((k) => `${k} precision (named)`).join(" | ")} |`);
  console.log(`| --- | ${KINDS.map(() => "---").join(" | ")} |`);
  for (const t of THRESHOLDS) {
    const cells = KINDS.map((k) => {
      const named = reads.filter((x) => x.kind === k && x.confidence >= t);
      const p = named.length ? named.filter((x) => x.truth === k).length / named.length : NaN;
      return `${p.toFixed(2)} (${named.length})`;
    });
    console.log(`| ${t.toFixed(2)} | ${cells.join(" | ")} |`);
  }
  for (const k of KINDS) {
    const bar = THRESHOLDS.find((t) => {
      const named = reads.filter((x) => x.kind === k && x.confidence >= t);
      // Fewer than 10 named: too few to say; the threshold is not taken.
      return named.length >= 10 && named.filter((x) => x.truth === k).length / named.length >= TARGET;
    });
    bars[k]!.push(bar ?? Infinity);
  }
}
for (const k of KINDS)
  console.log(`${k}: lowest confidence right ≥ ${TARGET * 100}% on every set: ${Math.max(...bars[k]!)}`);
