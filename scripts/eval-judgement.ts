/**
 * `npm run eval`: how well the offline judge's scores match the maintainers' real decisions on the labeled
 * corpus (../shared/corpus/labeled-issues.jsonl). Every figure for the fitted judge is repository-grouped
 * cross-validated: the model that scores an issue was fitted without any issue of that repository.
 * `--smoke` runs fewer bootstrap rounds and one repeat (CI checks that it runs, never its figures).
 * `--choose-kind` prints the cross-validation on the NLBSE'24 training split that chose the kind model's settings.
 * `--prose` prints only what the reports say (boilerplate, echoes, quotes; scripts/eval/prose.ts) and exits.
 */
import { DEFAULT_APPROVAL_POLICY, evaluateApproval } from "../src/core/approval.js";
import { PERSONAS } from "../src/core/personas.js";
import { JUDGE_MODEL, scorePersonas } from "../src/core/offline/offline-scorer.js";
import { runReaderEval } from "./eval-reader.js";
import { chooseKind } from "./eval/kind-cv.js";
import { runProseEval } from "./eval/prose-run.js";
import { fitJudge } from "./eval/fit.js";
import { development } from "./eval/holdout.js";
import { decided, loadLabeled, type LabeledIssue } from "./eval/labeled-corpus.js";
import { auc, aucWithInterval, groupedFolds } from "./eval/metrics.js";

if (process.argv.includes("--prose")) {
  runProseEval();
  process.exit(0);
}

if (process.argv.includes("--choose-kind")) {
  chooseKind();
  process.exit(0);
}

const smoke = process.argv.includes("--smoke");
const ROUNDS = smoke ? 100 : 1000;
const FOLDS = 5;
const REPEATS = smoke ? 1 : 5;

// The development part only: the holdout (eval/holdout.ts) is read by the reader's table with --holdout.
const all = loadLabeled();
const rows = all && development(all);
if (!rows) {
  console.log(
    "eval skipped: ../shared/corpus/labeled-issues.jsonl not found (it sits beside the clone in CI).",
  );
  await runReaderEval(process.argv.slice(2));
  process.exit(0);
}

/** Five persona scores per issue, in PERSONAS order. */
type Scores = Map<string, number[]>;

function crossValidated(seed: number): Scores {
  const out: Scores = new Map();
  const folds = groupedFolds(rows!, FOLDS, seed);
  for (let f = 0; f < FOLDS; f++) {
    const train = rows!.filter((_, i) => folds[i] !== f);
    const model = fitJudge(train);
    rows!.forEach((r, i) => {
      if (folds[i] === f) out.set(r.id, scorePersonas(r.task, r.description ?? "", model));
    });
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (x: number, d = 2) => (Number.isNaN(x) ? "n/a" : x.toFixed(d));

interface Figures {
  [metric: string]: string;
}

function figures(scoreOf: (r: LabeledIssue) => number[] | number, personas: boolean): Figures {
  const avg = (r: LabeledIssue) => {
    const s = scoreOf(r);
    return Array.isArray(s) ? mean(s) : s;
  };
  const f: Figures = {};
  const d = decided(rows!);
  const interval = (xs: LabeledIssue[], score = avg) => {
    const r = aucWithInterval(
      xs.map((x) => ({ positive: x.outcome === "implemented", score: score(x) })),
      ROUNDS,
    );
    return `${fmt(r.auc)} [${fmt(r.lo)}–${fmt(r.hi)}]`;
  };
  f["auc.all"] = interval(d);
  f["auc.without_spam"] = interval(d.filter((x) => x.kind !== "spam"));
  for (const kind of ["feature", "bug", "chore", "docs", "question"] as const) {
    const xs = d.filter((x) => x.kind === kind);
    const n = `${xs.filter((x) => x.outcome === "implemented").length}/${xs.filter((x) => x.outcome === "rejected").length}`;
    f[`auc.${kind} (${n})`] = interval(xs);
  }
  if (!personas) return f;
  const spam = rows!.filter((x) => x.kind === "spam");
  const junk = spam.filter((x) => avg(x) <= 3).length;
  f["junk_recall (spam avg<=3)"] = `${fmt(junk / spam.length)} (${junk}/${spam.length})`;
  const approved = (r: LabeledIssue) => {
    const s = scoreOf(r) as number[];
    return evaluateApproval(s, DEFAULT_APPROVAL_POLICY).approved;
  };
  const a = rows!.filter(approved);
  const ad = a.filter((x) => x.outcome === "implemented" || x.outcome === "rejected");
  const ai = ad.filter((x) => x.outcome === "implemented").length;
  const impl = d.filter((x) => x.outcome === "implemented").length;
  f[`approval_rate (all ${rows!.length})`] = `${fmt(a.length / rows!.length)} (${a.length})`;
  f["approval_precision"] = `${fmt(ad.length ? ai / ad.length : NaN)} (${ai}/${ad.length})`;
  f["implemented_approved"] = `${fmt(ai / impl)} (${ai}/${impl})`;
  PERSONAS.forEach((p, i) => {
    f[`auc.persona.${p.id}`] = interval(d, (x) => (scoreOf(x) as number[])[i]!);
  });
  return f;
}

const t0 = performance.now();
const columns: [string, Figures][] = [];
// Cross-validated: every issue is scored by a model fitted without any issue of its repository. Each
// repeat deals repositories to folds with another seed; the table shows the first, and the spread of
// the headline AUC over all repeats is printed below it.
const repeats = Array.from({ length: REPEATS }, (_, k) => crossValidated(101 + k));
columns.push(["offline, cross-validated", figures((r) => repeats[0]!.get(r.id)!, true)]);
columns.push([
  "offline, shipped (in-sample)",
  figures((r) => scorePersonas(r.task, r.description ?? "", JUDGE_MODEL), true),
]);
columns.push(["baseline: title length", figures((r) => [...r.task].length, false)]);
columns.push(["baseline: description length", figures((r) => [...(r.description ?? "")].length, false)]);

const metrics = [...new Set(columns.flatMap(([, f]) => Object.keys(f)))];
const width = Math.max(...metrics.map((m) => m.length)) + 2;
const colWidth = 30;
console.log(
  `Judgement on ${rows.length} labeled issues (${decided(rows).length} implemented or rejected), ` +
    `${FOLDS}-fold repository-grouped CV × ${REPEATS}, bootstrap ${ROUNDS}${smoke ? " (smoke)" : ""}\n`,
);
console.log("".padEnd(width) + columns.map(([name]) => name.padEnd(colWidth)).join(""));
for (const m of metrics)
  console.log(m.padEnd(width) + columns.map(([, f]) => (f[m] ?? "").padEnd(colWidth)).join(""));
const spread = repeats.map((sc) => {
  const d = decided(rows);
  const avgOf = (r: LabeledIssue) => mean(sc.get(r.id)!);
  return auc(
    d.filter((x) => x.outcome === "implemented").map(avgOf),
    d.filter((x) => x.outcome === "rejected").map(avgOf),
  );
});
const approvals = repeats.map((sc) => {
  const approvedIds = rows.filter((r) => evaluateApproval(sc.get(r.id)!, DEFAULT_APPROVAL_POLICY).approved);
  const tp = approvedIds.filter((r) => r.outcome === "implemented").length;
  const fp = approvedIds.filter((r) => r.outcome === "rejected").length;
  const impl = rows.filter((r) => r.outcome === "implemented").length;
  return `${fmt(tp / Math.max(1, tp + fp))}/${fmt(tp / impl)}`;
});
console.log(
  `\ncross-validated auc.all over ${REPEATS} fold assignment(s): ${spread.map((a) => fmt(a)).join(", ")}` +
    `\ncross-validated approval precision/implemented approved, same assignments: ${approvals.join(", ")}` +
    `\nshipped model: λ=${JUDGE_MODEL.lambda}, fitted on ${JUDGE_MODEL.trainedOn} issues (npm run fit)`,
);
console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);

await runReaderEval(process.argv.slice(2));
