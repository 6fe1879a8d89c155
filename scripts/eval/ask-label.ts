/**
 * Labels for the ask's ranker: a seeded sample of public texts (the labeled corpus's development part and the
 * NLBSE'24 training split, read from ../shared at run time, never copied here), each printed with its candidate
 * sentences (askCandidates) for a reader to pick the one that states the request or the problem. The picks are
 * kept in ask-labels.json by the text's hash and the candidate's hash (no text is stored).
 *
 *   node --import tsx scripts/eval/ask-label.ts --seed S --n N --out DIR [--parts K]   write DIR/part-K.txt
 *   … --source hadoop                                                                    from Hadoop's Jira instead
 *   node --import tsx scripts/eval/ask-label.ts --merge FILE.json --dump DIR/part-K.txt    add a reader's picks
 *
 * A reader's picks: {"<key>": {"best": <index> | null, "ok": [<index>…], "unlisted": <bool>}}; `best` the sentence
 * that states the request or problem, `ok` others a maintainer would also accept, `unlisted` when the description
 * has such a sentence but it is not among the candidates.
 * Texts already read by the maintainer's readings or annotated by ask-eval are left out, so those stay checks.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { askCandidates } from "../../src/core/offline/ask-sentences.js";
import { askPool, candidateKey, keysIn, seededOrder, writeParts, type AskLabel } from "./ask-data.js";

const here = dirname(fileURLToPath(import.meta.url));
const LABELS = resolve(here, "ask-labels.json");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const labels: Record<string, AskLabel> = existsSync(LABELS)
  ? (JSON.parse(readFileSync(LABELS, "utf8")) as Record<string, AskLabel>)
  : {};
// `--source hadoop`: sample Hadoop's Jira reports; merging reads both pools, so a label of either is found.
const source = arg("--source");
const pool = askPool({ hadoop: true });
if (!pool) {
  console.log("../shared is absent: nothing to label.");
  process.exit(0);
}
const byKey = new Map(pool.map((t) => [t.key, t]));

const merge = arg("--merge");
if (merge) {
  const picks = JSON.parse(readFileSync(merge, "utf8")) as Record<
    string,
    { best: number | null; ok?: number[]; unlisted?: boolean }
  >;
  const shown = new Map<string, string[]>();
  const dump = arg("--dump");
  if (dump)
    for (const block of readFileSync(dump, "utf8")
      .split(/^=== KEY /m)
      .slice(1)) {
      const key = block.slice(0, block.indexOf("\n"));
      const list = block.slice(block.indexOf("--- CANDIDATES\n") + 15);
      const lines = list.split("\n").filter((l) => /^\[\d+\] \(/.test(l));
      shown.set(
        key,
        lines.map((l) => l.replace(/^\[\d+\] \([^)]*\) /, "")),
      );
    }
  let added = 0;
  for (const [key, pick] of Object.entries(picks)) {
    const t = byKey.get(key);
    if (!t) continue;
    // The candidates as the reader saw them (the dump), else as they are read now.
    const texts = shown.get(key) ?? askCandidates(t.description).map((c) => c.text);
    const hash = (i: number) => (texts[i] !== undefined ? candidateKey(texts[i]!) : undefined);
    labels[key] = {
      best: pick.best === null || pick.best === undefined ? null : (hash(pick.best) ?? null),
      ok: (pick.ok ?? []).map(hash).filter((h): h is string => !!h),
      unlisted: !!pick.unlisted,
    };
    added++;
  }
  const sorted = Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(LABELS, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${added} labels merged; ${Object.keys(sorted).length} in all`);
  process.exit(0);
}

const seed = arg("--seed") ?? "1";
const n = Number(arg("--n") ?? 100);
const parts = Number(arg("--parts") ?? 1);
const out = arg("--out") ?? "/tmp/ask-labels";
const skip = keysIn("maintainer-readings.json", "ask-annotations.json");
const sample = seededOrder(
  pool
    .filter((t) => (source === "hadoop") === (t.repo === "apache/hadoop"))
    .filter((t) => !skip.has(t.key) && !labels[t.key])
    .map((t) => ({ ...t, cands: askCandidates(t.description) }))
    .filter((t) => t.cands.length > 0),
  `ask-label-${seed}`,
).slice(0, n);
writeParts(out, sample, parts, (t) => {
  const body = t.description.length > 3000 ? `${t.description.slice(0, 3000)}\n[… cut]` : t.description;
  const list = t.cands.map((c, i) => `[${i}] (${c.section}${c.step ? ", step" : ""}) ${c.text}`).join("\n");
  return `=== KEY ${t.key}\nTITLE: ${t.title}\n--- DESCRIPTION\n${body}\n--- CANDIDATES\n${list}\n`;
});
console.log(`${sample.length} texts in ${parts} parts under ${out}`);
