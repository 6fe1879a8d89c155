/**
 * Fitting the ask's ranker (ask-rank.ts) on readers' picks (ask-labels.json): pointwise logistic regression over
 * every candidate sentence (a pick or an accepted alternative is 1, the rest 0), the shown candidate the top one
 * when its logit reaches the bar. Judged by repository-grouped 5-fold cross-validation against the rules'
 * choice (ruleChoice) on the same texts; then fitted on all and written to src/core/offline/ask-model.data.ts.
 *
 *   node --import tsx scripts/eval/fit-ask.ts            cross-validation figures and the fit
 *   node --import tsx scripts/eval/fit-ask.ts --dry      figures only
 *   … --wrong FILE                                        also write the cross-validation's untrue lines at λ 1 and the shipped cost
 *
 * Per text: correct (the shown sentence is a pick), wrong (another sentence shown), wrong_null (shown where the
 * reader found none), missed (none shown where the reader found one), null_ok. Precision = correct / shown;
 * coverage = correct / texts with an ask; false = (wrong + wrong_null) / texts: the share of reports whose "Asks:"
 * line a reader would call untrue.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ASK_FEATURES, askFeatures, askLogit } from "../../src/core/offline/ask-rank.js";
import type { AskModel } from "../../src/core/offline/ask-model.data.js";
import { askCandidates } from "../../src/core/offline/ask-sentences.js";
import { ruleChoice } from "./ask-rules.js";
import { askPool, candidateKey, type AskLabel } from "./ask-data.js";
import { fitWeights } from "./fit-logistic.js";

const here = dirname(fileURLToPath(import.meta.url));
const LABELS = resolve(here, "ask-labels.json");
const MODEL = resolve(here, "../../src/core/offline/ask-model.data.ts");

/**
 * Weights the fit is shrunk towards, where the picks hold few cases to learn from (in the feature's own units): a
 * count of who asks ("Twelve customers asked for it"), what a request is good for ("Useful so a screen reader user
 * …") and a cause ("Because RANSAC gives bad results") say why, not what is asked (the readers' instructions say
 * so; fresh readings took the last two, shown as the ask, for false).
 */
const PRIOR: Partial<Record<(typeof ASK_FEATURES)[number], number>> = {
  demand: -3,
  motivation: -2,
  cause: -2,
};

/** Another tracker's texts (askPool's Hadoop reports), shown apart: they sit in one fold, all of them unseen by its fit. */
const OTHER_TRACKER = "apache/hadoop";

interface Text {
  repo: string;
  rows: number[][];
  pos: Set<number>;
  /** The reader found an ask (among the candidates or not). */
  hasAsk: boolean;
  rule: number;
  title: string;
  sentences: string[];
}

type Verdict = "correct" | "wrong" | "wrong_null" | "missed" | "null_ok";

function judge(t: Text, chosen: number): Verdict {
  if (chosen >= 0) return t.pos.has(chosen) ? "correct" : t.hasAsk ? "wrong" : "wrong_null";
  return t.hasAsk ? "missed" : "null_ok";
}

function figures(vs: readonly Verdict[]) {
  const c = { correct: 0, wrong: 0, wrong_null: 0, missed: 0, null_ok: 0 };
  for (const v of vs) c[v]++;
  const shown = c.correct + c.wrong + c.wrong_null;
  const withAsk = c.correct + c.wrong + c.missed;
  return {
    ...c,
    precision: shown ? c.correct / shown : 0,
    coverage: withAsk ? c.correct / withAsk : 0,
    false: (c.wrong + c.wrong_null) / vs.length,
  };
}

const fmt = (f: ReturnType<typeof figures>) =>
  `precision ${f.precision.toFixed(3)}  coverage ${f.coverage.toFixed(3)}  false ${(100 * f.false).toFixed(1)}%  ` +
  `(correct ${f.correct}, wrong ${f.wrong}, wrong_null ${f.wrong_null}, missed ${f.missed}, null_ok ${f.null_ok})`;

/** The fitted weights as a model the ranker reads (its bar chosen afterwards, by chooseBar). */
function fit(texts: readonly Text[], lambda: number): AskModel {
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const t of texts)
    for (const [i, x] of t.rows.entries()) {
      xs.push(x);
      ys.push(t.pos.has(i) ? 1 : 0);
    }
  const w = fitWeights(
    xs,
    ys,
    lambda,
    ASK_FEATURES.map((f) => PRIOR[f] ?? 0),
  );
  return { features: [...ASK_FEATURES], ...w, bar: 0, trainedOn: texts.length };
}

function top(model: AskModel, t: Text): { i: number; z: number } {
  let best = { i: -1, z: -Infinity };
  for (const [i, x] of t.rows.entries()) {
    const z = askLogit(model, x);
    if (z > best.z) best = { i, z };
  }
  return best;
}

/** The bar that maximises correct − cost × false shown over the training texts. */
function chooseBar(tops: readonly { t: Text; i: number; z: number }[], cost: number): number {
  const zs = [...new Set(tops.map((x) => x.z))].sort((a, b) => a - b);
  let best = { bar: -Infinity, gain: -Infinity };
  for (const bar of [-Infinity, ...zs]) {
    let gain = 0;
    for (const x of tops) {
      if (x.i < 0 || x.z < bar) continue;
      gain += x.t.pos.has(x.i) ? 1 : -cost;
    }
    if (gain > best.gain) best = { bar, gain };
  }
  return Number.isFinite(best.bar) ? best.bar : -1e9;
}

function main() {
  const pool = askPool({ hadoop: true });
  if (!pool || !existsSync(LABELS)) {
    console.log("../shared or the labels are absent: nothing to fit.");
    return;
  }
  const labels = JSON.parse(readFileSync(LABELS, "utf8")) as Record<string, AskLabel>;
  const texts: Text[] = [];
  let unreadable = 0;
  for (const p of pool) {
    const l = labels[p.key];
    if (!l) continue;
    const cands = askCandidates(p.description);
    const keys = cands.map((c) => candidateKey(c.text));
    const want = new Set([...(l.best ? [l.best] : []), ...l.ok]);
    const pos = new Set(keys.flatMap((k, i) => (want.has(k) ? [i] : [])));
    // A pick whose sentence is no longer a candidate: the reading changed under the label.
    if (want.size > 0 && pos.size === 0) unreadable++;
    texts.push({
      repo: p.repo,
      rows: cands.length ? askFeatures(p.title, cands) : [],
      pos,
      hasAsk: want.size > 0 || l.unlisted,
      rule: ruleChoice(cands),
      title: p.title,
      sentences: cands.map((c) => c.text),
    });
  }
  console.log(`${texts.length} labelled texts (${unreadable} whose pick is no longer a candidate)`);
  console.log(`rules       ${fmt(figures(texts.map((t) => judge(t, t.rule))))}`);
  const others = texts.filter((t) => t.repo === OTHER_TRACKER);
  if (others.length)
    console.log(`      of which Hadoop's Jira  ${fmt(figures(others.map((t) => judge(t, t.rule))))}`);
  const fold = (repo: string) => createHash("sha256").update(`ask-cv:${repo}`).digest()[0]! % 5;
  const lambdas = [1, 3, 10, 30];
  // A line a reader calls untrue costs four lines not shown (the cost the bar is chosen for; the others are printed
  // to show the trade). Where no ask is shown the Product Manager still quotes the author's opening sentence as "The
  // author writes", true by construction; an "Asks:" line is a claim. At cost 2 a blind reading of another tracker
  // (Hadoop's Jira, 25 changed comments) found the ranker's extra asks as often untrue as the rules' (6 vs 4); at
  // cost 3 fresh readings of 236 unseen comments still found 8.9% contradicted, most of them on the "Asks:" line; at
  // cost 4, 26 of 235 (10 of them on the "Asks:" line, 4.3% of comments, as the cross-validation's 4.4% said). Cost 6
  // puts the cross-validated untrue lines under 2% (precision 0.94) but shows an ask in 30% of texts with one, and
  // drops plain statements of a problem ("Saving a draft with an emoji in the title loses the whole draft."): not
  // taken.
  const costs = [1, 2, 3, 4, 5, 6, 8];
  const COST = 4;
  let chosen = { lambda: 10, cost: COST, score: -Infinity };
  // Out-of-fold untrue lines at λ 1 and the shipped cost, for a person to read (what a feature should tell apart).
  const untrue: { title: string; shown: string; picks: string[] }[] = [];
  for (const lambda of lambdas)
    for (const cost of costs) {
      const vs: Verdict[] = [];
      const other: Verdict[] = [];
      for (let k = 0; k < 5; k++) {
        const train = texts.filter((t) => fold(t.repo) !== k);
        const test = texts.filter((t) => fold(t.repo) === k);
        const m = fit(train, lambda);
        const bar = chooseBar(
          train.map((t) => ({ t, ...top(m, t) })),
          cost,
        );
        for (const t of test) {
          const x = top(m, t);
          const v = judge(t, x.i >= 0 && x.z >= bar ? x.i : -1);
          vs.push(v);
          if (lambda === 1 && cost === COST && (v === "wrong" || v === "wrong_null"))
            untrue.push({
              title: t.title,
              shown: t.sentences[x.i]!,
              picks: [...t.pos].map((i) => t.sentences[i]!),
            });
          if (t.repo === OTHER_TRACKER) other.push(v);
        }
      }
      const f = figures(vs);
      console.log(`λ ${String(lambda).padEnd(3)} cost ${cost}  ${fmt(f)}`);
      if (other.length) console.log(`      of which Hadoop's Jira  ${fmt(figures(other))}`);
      const score = f.correct - COST * (f.wrong + f.wrong_null);
      if (cost === COST && score > chosen.score) chosen = { lambda, cost, score };
    }
  console.log(`chosen: λ ${chosen.lambda}, cost ${chosen.cost}`);
  const wrongFile = process.argv[process.argv.indexOf("--wrong") + 1];
  if (process.argv.includes("--wrong") && wrongFile)
    writeFileSync(wrongFile, JSON.stringify(untrue, null, 1));
  if (process.argv.includes("--dry")) return;
  const m = fit(texts, chosen.lambda);
  const bar = chooseBar(
    texts.map((t) => ({ t, ...top(m, t) })),
    chosen.cost,
  );
  const model: AskModel = {
    ...m,
    mean: m.mean.map((v) => +v.toFixed(6)),
    scale: m.scale.map((v) => +v.toFixed(6)),
    weights: m.weights.map((v) => +v.toFixed(6)),
    intercept: +m.intercept.toFixed(6),
    bar: +bar.toFixed(6),
  };
  const src = readFileSync(MODEL, "utf8");
  const head = src.slice(0, src.indexOf("export const ASK_MODEL"));
  writeFileSync(MODEL, `${head}export const ASK_MODEL: AskModel = ${JSON.stringify(model, null, 2)};\n`);
  for (const [j, name] of ASK_FEATURES.entries())
    console.log(`  ${name.padEnd(20)} ${(m.weights[j]! / m.scale[j]!).toFixed(3)}`);
  console.log(`  bar ${bar.toFixed(3)} → ${MODEL}`);
}

main();
