// The size bands of `reading.change` (issue 31), chosen from real pull requests and checked on unseen ones:
//   npx tsx scripts/eval/size-bands.ts
// Reads ../shared/benchmarks/pullreqs/pullreqs.csv (307,545 pull requests of 863 projects, GHTorrent 2014).
// Lines changed = the dataset's src_churn + test_churn; pull requests that change no source or test line (docs
// or other files only, which the dataset does not count) are left out. The cuts are taken from the development
// projects only; the held-out quarter (the seeded hash of holdout.ts) is read once, to check the shares.
// Prints the percentiles per language, the cuts chosen, and the held-out shares against the intended ones.
import { readFileSync } from "node:fs";
import { SIZE_BANDS, SIZE_CUTS } from "../../src/core/change/size-bands.js";
import { isHoldoutRepo } from "./holdout.js";

const CSV = new URL("../../../shared/benchmarks/pullreqs/pullreqs.csv", import.meta.url);
/** XS up to p20, S up to p50, M up to p80, L up to p95, XL above: half are XS or S, XL is one in twenty. */
const CUT_PERCENTILES = [20, 50, 80, 95] as const;
const INTENDED = [20, 30, 30, 15, 5];
const SHOWN = [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99];

const [head, ...rows] = readFileSync(CSV, "utf8").trim().split("\n");
const col = (name: string) => head!.split(",").indexOf(name);
const [P, L, S, T] = [col("project_name"), col("lang"), col("src_churn"), col("test_churn")];

type Split = Map<string, number[]>;
const dev: Split = new Map();
const held: Split = new Map();
let zero = 0;
for (const row of rows) {
  const c = row.split(",");
  const lines = Number(c[S]) + Number(c[T]);
  if (lines === 0) {
    zero++;
    continue;
  }
  const split = isHoldoutRepo(c[P]!) ? held : dev;
  for (const key of [c[L]!, "all"]) {
    if (!split.has(key)) split.set(key, []);
    split.get(key)!.push(lines);
  }
}
for (const split of [dev, held]) for (const a of split.values()) a.sort((x, y) => x - y);

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const cutsOf = (sorted: readonly number[]) => CUT_PERCENTILES.map((p) => percentile(sorted, p));
const bandOf = (lines: number, cuts: readonly number[]) => {
  let i = 0;
  while (i < cuts.length && lines > cuts[i]!) i++;
  return i;
};
const shares = (lines: readonly number[], cuts: readonly number[]) => {
  const n = [0, 0, 0, 0, 0];
  for (const v of lines) n[bandOf(v, cuts)]!++;
  return n.map((x) => Math.round((1000 * x) / lines.length) / 10);
};
/** How far the shares are from the intended ones: the sum of the differences, in points. */
const off = (s: readonly number[]) =>
  Math.round(s.reduce((t, x, i) => t + Math.abs(x - INTENDED[i]!), 0) * 10) / 10;

console.log(`${rows.length} pull requests; ${zero} change no source or test line and are left out.\n`);
console.log(`Lines changed by percentile (development projects; held-out in brackets):`);
console.log(`${"".padEnd(8)}${"n".padStart(8)}  ${SHOWN.map((p) => `p${p}`.padStart(14)).join("")}`);
for (const lang of ["all", "java", "python", "ruby", "scala"]) {
  const d = dev.get(lang)!;
  const h = held.get(lang)!;
  console.log(
    `${lang.padEnd(8)}${String(d.length).padStart(8)}  ${SHOWN.map((p) => `${percentile(d, p)} (${percentile(h, p)})`.padStart(14)).join("")}`,
  );
}

console.log(
  `\nCuts at p${CUT_PERCENTILES.join(", p")} (upper bounds of ${SIZE_BANDS.slice(0, 4).join(", ")}):`,
);
for (const lang of ["all", "java", "python", "ruby", "scala"])
  console.log(`  ${lang.padEnd(7)} ${cutsOf(dev.get(lang)!).join(", ")}`);

console.log(
  `\nHeld-out projects' shares in ${SIZE_BANDS.join("/")} (intended ${INTENDED.join("/")}; off = points away):`,
);
const pooled = cutsOf(dev.get("all")!);
for (const lang of ["java", "python", "ruby", "scala"]) {
  const h = held.get(lang)!;
  const p = shares(h, pooled);
  const own = shares(h, cutsOf(dev.get(lang)!));
  console.log(
    `  ${lang.padEnd(7)} pooled cuts ${p.join("/").padEnd(26)} off ${String(off(p)).padEnd(6)} own cuts ${own.join("/").padEnd(26)} off ${off(own)}`,
  );
}

const chosen = (lang: string) => (lang === "java" ? SIZE_CUTS.java : SIZE_CUTS.default);
const all = [...held.entries()].filter(([k]) => k !== "all");
const heldShares = [0, 0, 0, 0, 0];
let heldTotal = 0;
for (const [lang, lines] of all)
  for (const v of lines) {
    heldShares[bandOf(v, chosen(lang))]!++;
    heldTotal++;
  }
const chosenShares = heldShares.map((x) => Math.round((1000 * x) / heldTotal) / 10);
console.log(
  `\nChosen (src/core/change/size-bands.ts): Java ${SIZE_CUTS.java.join(", ")}; every other language ${SIZE_CUTS.default.join(", ")}.`,
);
console.log(`  held-out, all languages: ${chosenShares.join("/")} (off ${off(chosenShares)})`);
const stale = [
  SIZE_CUTS.default.join() !== pooled.join() && `default (data gives ${pooled.join(", ")})`,
  SIZE_CUTS.java.join() !== cutsOf(dev.get("java")!).join() &&
    `java (data gives ${cutsOf(dev.get("java")!).join(", ")})`,
].filter(Boolean);
if (stale.length > 0) {
  console.log(`\nThe cuts in size-bands.ts differ from the data: ${stale.join("; ")}.`);
  process.exitCode = 1;
}
