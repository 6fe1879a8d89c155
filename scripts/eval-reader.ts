/**
 * The reader's figures (the targets of the "read the task right" work), printed by `npm run eval` after the
 * judgement table: before (the judge as it was, figures in eval/before.json, measured by running this script
 * with `--before <checkout of the old judge>`) and after (this checkout).
 *
 * Honesty rules: the NLBSE test split and the corpus holdout (eval/holdout.ts) are read only with
 * `--holdout`, once, at the end; everything else uses the NLBSE training split and the corpus's development
 * part. `--smoke` skips the slow leave-one-repository-out refits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_APPROVAL_POLICY, evaluateApproval } from "../src/core/approval.js";
import { PERSONAS, type PersonaId } from "../src/core/personas.js";
import { KIND_CLASSES, predictKind } from "../src/core/offline/kind-model.js";
import { evidenceFigures } from "./eval/evidence-eval.js";
import { fitKind } from "./eval/fit-kind.js";
import { fitJudge } from "./eval/fit.js";
import { development, holdout } from "./eval/holdout.js";
import { kindExamples } from "./eval/kind-data.js";
import { decided, loadLabeled, type LabeledIssue } from "./eval/labeled-corpus.js";
import { auc, groupedFolds } from "./eval/metrics.js";
import { loadNlbse, type NlbseIssue } from "./eval/nlbse.js";
import { PERSONA_PAIRS } from "./eval/persona-pairs.js";

const here = dirname(fileURLToPath(import.meta.url));
const BEFORE_PATH = resolve(here, "eval/before.json");

/** What the script needs from a judge: the five scores, the kind it states, and (after) a refit. */
interface Judge {
  scores(task: string, description: string): number[];
  kind(task: string, description: string): string;
  /** Scores by a judge fitted on `train` only (repository-grouped CV). */
  refit?(train: LabeledIssue[]): (task: string, description: string) => number[];
}

async function loadJudge(root: string, after: boolean): Promise<Judge> {
  const scorer = (await import(resolve(root, "src/core/offline/offline-scorer.ts"))) as {
    scorePersonas: (t: string, d: string, model?: unknown) => number[];
    readTask: (t: string, d: string) => { structure: { kind: string } };
  };
  if (!after)
    return {
      scores: (t, d) => scorer.scorePersonas(t, d),
      kind: (t, d) => scorer.readTask(t, d).structure.kind,
    };
  const reader = (await import(resolve(root, "src/core/offline/read-reading.ts"))) as {
    readReading: (t: string, d: string) => { kind: string };
  };
  return {
    scores: (t, d) => scorer.scorePersonas(t, d),
    kind: (t, d) => reader.readReading(t, d).kind,
    refit: (train) => {
      const model = fitJudge(train);
      return (t, d) => scorer.scorePersonas(t, d, model);
    },
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sd = (xs: readonly number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const f2 = (x: number) => (Number.isNaN(x) ? "n/a" : x.toFixed(2));

function macroF1(pairs: readonly [string, string][]): number {
  let f = 0;
  for (const c of KIND_CLASSES) {
    const tp = pairs.filter(([y, p]) => y === c && p === c).length;
    const fp = pairs.filter(([y, p]) => y !== c && p === c).length;
    const fn = pairs.filter(([y, p]) => y === c && p !== c).length;
    f += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return f / KIND_CLASSES.length;
}

/** The benchmark's protocol: macro-F1 per repository, then the mean. */
function perRepoF1(rows: readonly NlbseIssue[], kindOf: (r: NlbseIssue) => string): string {
  const repos = [...new Set(rows.map((r) => r.repo))];
  const per = repos.map((repo) =>
    macroF1(rows.filter((r) => r.repo === repo).map((r) => [r.label, kindOf(r)] as [string, string])),
  );
  return `${f2(mean(per))} (${repos.map((r, i) => `${r.split("/")[1]} ${f2(per[i]!)}`).join(", ")})`;
}

const ONE_LINERS = ["make it better", "it doesnt work", "Something is wrong", "Login broken", "Add export"];

type Figures = Record<string, string>;

function figures(j: Judge, opts: { smoke: boolean; holdout: boolean }): Figures {
  const f: Figures = {};
  const train = loadNlbse("train");
  const test = opts.holdout ? loadNlbse("test") : undefined;
  const corpus = loadLabeled();
  if (train) {
    f["NLBSE train macro-F1 (in-sample for the fitted model)"] = perRepoF1(train, (r) =>
      j.kind(r.title, r.body),
    );
    if (j.refit && !opts.smoke) {
      const examples = kindExamples()!;
      const repos = [...new Set(examples.map((e) => e.repo))];
      const per = repos.map((repo) => {
        const m = fitKind(examples.filter((e) => e.repo !== repo));
        const pick = (t: string, b: string) => {
          const p = predictKind(m, t, b);
          return KIND_CLASSES[p.indexOf(Math.max(...p))]!;
        };
        return macroF1(
          train
            .filter((r) => r.repo === repo)
            .map((r) => [r.label, pick(r.title, r.body)] as [string, string]),
        );
      });
      f["leave-one-repository-out macro-F1 (train split, kind model)"] =
        `${f2(mean(per))} (${repos.map((r, i) => `${r.split("/")[1]} ${f2(per[i]!)}`).join(", ")})`;
    }
    const junk = train.filter((r) => j.kind(r.title, r.body) === "junk").length;
    const low = train.filter((r) => mean(j.scores(r.title, r.body)) <= 2).length;
    f["NLBSE train: called junk / scored avg <= 2"] = `${junk} / ${low} of ${train.length}`;
    const spread = [...train.slice(0, 600), ...(corpus ? development(corpus) : [])].map((r) =>
      "title" in r ? j.scores(r.title, r.body) : j.scores(r.task, r.description ?? ""),
    );
    f["mean within-report persona SD; all five equal"] =
      `${f2(mean(spread.map(sd)))}; ${f2(spread.filter((s) => s.every((x) => x === s[0])).length / spread.length)}`;
  }
  if (test) {
    f["HOLDOUT NLBSE test macro-F1 (one model)"] = perRepoF1(test, (r) => j.kind(r.title, r.body));
    const junk = test.filter((r) => j.kind(r.title, r.body) === "junk").length;
    const low = test.filter((r) => mean(j.scores(r.title, r.body)) <= 2).length;
    f["HOLDOUT NLBSE test: called junk / scored avg <= 2"] = `${junk} / ${low} of ${test.length}`;
  }
  if (corpus) {
    const dev = development(corpus);
    // Repository-grouped CV on the development part (the judge refitted in each fold where it can be).
    const scored = new Map<string, number[]>();
    const folds = groupedFolds(dev, 5, 101);
    for (let k = 0; k < 5; k++) {
      const scoreOf = j.refit ? j.refit(dev.filter((_, i) => folds[i] !== k)) : j.scores;
      dev.forEach((r, i) => {
        if (folds[i] === k) scored.set(r.id, scoreOf(r.task, r.description ?? ""));
      });
    }
    const rankAuc = (rows: LabeledIssue[], score: (r: LabeledIssue) => number) => {
      const d = decided(rows);
      return auc(
        d.filter((r) => r.outcome === "implemented").map(score),
        d.filter((r) => r.outcome === "rejected").map(score),
      );
    };
    f["acceptance AUC (grouped CV, development part)"] = f2(rankAuc(dev, (r) => mean(scored.get(r.id)!)));
    const spam = dev.filter((r) => r.kind === "spam");
    const caught = spam.filter((r) => mean(scored.get(r.id)!) <= 3).length;
    f["corpus junk recall (CV, spam avg <= 3)"] = `${f2(caught / spam.length)} (${caught}/${spam.length})`;
    const approved = dev.filter((r) => evaluateApproval(scored.get(r.id)!, DEFAULT_APPROVAL_POLICY).approved);
    const tp = approved.filter((r) => r.outcome === "implemented").length;
    const fp = approved.filter((r) => r.outcome === "rejected").length;
    const impl = dev.filter((r) => r.outcome === "implemented").length;
    f["approval precision; implemented approved (CV)"] =
      `${f2(tp / Math.max(1, tp + fp))} (${tp}/${tp + fp}); ${f2(tp / impl)} (${tp}/${impl})`;
    if (opts.holdout) {
      const h = holdout(corpus);
      f["HOLDOUT acceptance AUC (corpus holdout, shipped judge)"] =
        `${f2(rankAuc(h, (r) => mean(j.scores(r.task, r.description ?? ""))))} (${decided(h).length} decided)`;
    }
  }
  const pairs = PERSONA_PAIRS.filter(([t, d, hi, lo]) => {
    const s = j.scores(t, d);
    const at = (p: PersonaId) => s[PERSONAS.findIndex((x) => x.id === p)]!;
    return at(hi) > at(lo);
  }).length;
  f[`persona-pair cases (${PERSONA_PAIRS.length}, written before running)`] =
    `${f2(pairs / PERSONA_PAIRS.length)} (${pairs}/${PERSONA_PAIRS.length})`;
  const one = ONE_LINERS.map((t) => {
    const s = j.scores(t, "");
    return `${t}: ${f2(mean(s))}${evaluateApproval(s, DEFAULT_APPROVAL_POLICY).approved ? " APPROVED" : ""}`;
  });
  f["one-liners without a description"] = one.join("; ");
  if (j.refit) {
    // The evidence finders of this checkout, on the annotated descriptions (eval/evidence-annotations.ts).
    const dev = evidenceFigures("development");
    if (dev)
      f["evidence P / R per type (annotated, development two thirds)"] = Object.entries(dev)
        .map(([t, v]) => `${t} ${v}`)
        .join("; ");
    const held = opts.holdout ? evidenceFigures("held-out") : undefined;
    if (held)
      f["HOLDOUT evidence P / R per type (annotated held-out third)"] = Object.entries(held)
        .map(([t, v]) => `${t} ${v}`)
        .join("; ");
  }
  return f;
}

export async function runReaderEval(argv: readonly string[]): Promise<void> {
  const smoke = argv.includes("--smoke");
  const withHoldout = argv.includes("--holdout");
  const beforeAt = argv.indexOf("--before");
  if (beforeAt >= 0) {
    // Measure the old judge from another checkout and keep the figures for later runs.
    const root = resolve(argv[beforeAt + 1] ?? "");
    const before = figures(await loadJudge(root, false), { smoke: true, holdout: withHoldout });
    writeFileSync(
      BEFORE_PATH,
      JSON.stringify({ measuredFrom: "the judge before the reader work", ...before }, null, 2) + "\n",
    );
    console.log(`wrote ${BEFORE_PATH}`);
    return;
  }
  if (!loadNlbse("train") && !loadLabeled()) {
    console.log(
      "reader eval skipped: ../shared (the NLBSE benchmark and the labeled corpus) is not beside the clone.",
    );
    return;
  }
  const after = figures(await loadJudge(resolve(here, ".."), true), { smoke, holdout: withHoldout });
  let before: Figures = {};
  try {
    before = JSON.parse(readFileSync(BEFORE_PATH, "utf8")) as Figures;
  } catch {
    // no before figures recorded
  }
  const names = [
    ...new Set([...Object.keys(after), ...Object.keys(before).filter((k) => k !== "measuredFrom")]),
  ];
  const width = Math.max(...names.map((n) => n.length)) + 2;
  console.log(
    `\nThe reader${withHoldout ? " (with the holdout: read once, at the end)" : ""}${smoke ? " (smoke)" : ""}\n`,
  );
  for (const n of names) {
    console.log(`${n.padEnd(width)}before: ${before[n] ?? "-"}`);
    console.log(`${"".padEnd(width)}after:  ${after[n] ?? "-"}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runReaderEval(process.argv.slice(2));
