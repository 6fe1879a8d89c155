/**
 * The golden fingerprint of the offline judge: every public text (NLBSE'24 train split, the labeled corpus's
 * development part; scripts/eval/public-texts.ts) scored through the offline scorer and `scoreTask`'s report,
 * compared with test/core/__golden__/readings.json. A change to any score, reasoning or reading fails here, so
 * it is made on purpose and its counts go in the commit message. No issue text is stored: each entry is keyed
 * by a hash of (title, description) and holds the five scores, the kind, and short hashes of the reasonings,
 * the evidence and the whole reading.
 *
 * Rewrite the file after a deliberate change: `npm run golden`
 * (= UPDATE_GOLDEN=1 NODE_OPTIONS='--experimental-vm-modules --no-warnings' npx jest test/core/golden-reading.test.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "@jest/globals";
import { loadPublicTexts } from "../../scripts/eval/public-texts.js";
import { offlineScorer } from "../../src/core/offline/offline-scorer.js";
import { scoreTask } from "../../src/core/score-task.js";
import { ScoreRequestSchema } from "../../src/core/task-request.schema.js";
import { describeUnless } from "../helpers/skip.js";

const GOLDEN_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "__golden__/readings.json");
const texts = loadPublicTexts();

interface Golden {
  about: string;
  texts: number;
  /** key (hash of title and description) → "scores|kind|reasonings|evidence|reading" */
  readings: Record<string, string>;
}

const hash = (s: string, n: number) => createHash("sha256").update(s).digest("hex").slice(0, n);
const keyOf = (title: string, description: string) => hash(`${title}\u0000${description}`, 16);

const PARTS = ["scores", "kind", "reasonings", "evidence", "reading"] as const;

async function fingerprints(): Promise<{ readings: Record<string, string>; invalid: number }> {
  const readings: Record<string, string> = {};
  let invalid = 0;
  const clock = () => new Date("2026-01-01T00:00:00Z");
  for (const t of texts!) {
    const parsed = ScoreRequestSchema.safeParse({ task: t.title, description: t.description });
    if (!parsed.success) {
      invalid++;
      continue;
    }
    const { report } = await scoreTask(parsed.data, { scorer: offlineScorer, clock });
    const e = report.expertScores;
    readings[keyOf(t.title, t.description)] = [
      e.map((x) => x.score).join(","),
      report.reading.kind,
      hash(e.map((x) => x.reasoning).join("\u0001"), 10),
      hash(JSON.stringify(report.reading.evidence), 10),
      hash(JSON.stringify(report.reading), 10),
    ].join("|");
  }
  return { readings, invalid };
}

/** How many texts changed in each part (no text, only counts and a few keys). */
function differences(was: Record<string, string>, now: Record<string, string>) {
  const counts: Record<string, number> = { added: 0, removed: 0, changed: 0 };
  for (const p of PARTS) counts[p] = 0;
  const someKeys: string[] = [];
  for (const k of Object.keys(was)) if (!(k in now)) counts.removed!++;
  for (const [k, v] of Object.entries(now)) {
    const old = was[k];
    if (old === undefined) {
      counts.added!++;
      continue;
    }
    if (old === v) continue;
    counts.changed!++;
    if (someKeys.length < 5) someKeys.push(k);
    const [a, b] = [old.split("|"), v.split("|")];
    PARTS.forEach((p, i) => {
      if (a[i] !== b[i]) counts[p]!++;
    });
  }
  return { counts, someKeys };
}

describeUnless(
  texts === undefined
    ? "../shared/benchmarks/nlbse24/issues_train.csv or ../shared/corpus/labeled-issues.jsonl not found (they sit beside the clone in CI)."
    : undefined,
  "the golden fingerprint of every public text's scores and reading",
  () => {
    it("matches test/core/__golden__/readings.json (npm run golden rewrites it)", async () => {
      const { readings, invalid } = await fingerprints();
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(GOLDEN_PATH)) {
        const was: Golden | undefined = existsSync(GOLDEN_PATH)
          ? (JSON.parse(readFileSync(GOLDEN_PATH, "utf8")) as Golden)
          : undefined;
        const golden: Golden = {
          about:
            "Fingerprints of the offline judge over the public texts (test/core/golden-reading.test.ts). Key: hash of (title, description); value: scores|kind|hash of the reasonings|hash of the evidence|hash of the whole reading. No issue text.",
          texts: Object.keys(readings).length,
          readings,
        };
        mkdirSync(dirname(GOLDEN_PATH), { recursive: true });
        writeFileSync(GOLDEN_PATH, JSON.stringify(golden, null, 2) + "\n");
        if (was) {
          const { counts } = differences(was.readings, readings);
          process.stderr.write(
            `\ngolden readings rewritten; against the previous file: ${JSON.stringify(counts)}\n`,
          );
        }
        return;
      }
      const golden = JSON.parse(readFileSync(GOLDEN_PATH, "utf8")) as Golden;
      const { counts, someKeys } = differences(golden.readings, readings);
      const summary =
        `${Object.keys(readings).length} texts (${invalid} not valid requests, skipped); ` +
        `changed ${counts.changed} (scores ${counts.scores}, reasonings ${counts.reasonings}, reading kind ${counts.kind}, ` +
        `evidence ${counts.evidence}, whole reading ${counts.reading}), added ${counts.added}, removed ${counts.removed}` +
        (someKeys.length ? `; e.g. keys ${someKeys.join(", ")}` : "") +
        `. If the change is deliberate: npm run golden, and list these counts in the commit.`;
      if (counts.changed! + counts.added! + counts.removed! > 0) process.stderr.write(`\n${summary}\n`);
      expect({ changed: counts.changed, added: counts.added, removed: counts.removed, summary }).toEqual({
        changed: 0,
        added: 0,
        removed: 0,
        summary,
      });
    });
  },
);
