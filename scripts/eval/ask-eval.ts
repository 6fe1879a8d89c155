/**
 * How well `findAsk` finds the author's request or problem sentence, read by a person: a seeded sample of public
 * texts (the labeled corpus's development part and the NLBSE'24 training split, read from ../shared at run time,
 * never copied here), each printed with the ask found, judged by hand and recorded in ask-annotations.json by a
 * hash of the text (no text is stored).
 *
 *   node --import tsx scripts/eval/ask-eval.ts              figures over the annotated sample (and what is unjudged)
 *   node --import tsx scripts/eval/ask-eval.ts --show       print each sampled text's start and its ask, to judge
 *   node --import tsx scripts/eval/ask-eval.ts --seed 2     another sample (a fresh check after tuning)
 *
 * Verdicts, for the ask that was judged (its hash is kept with the verdict, so a changed ask reads as unjudged):
 *   correct        the ask is a sentence of the author's that states the request or the problem
 *   wrong          the ask is not such a sentence, and the text has one
 *   wrong_null     the ask is not such a sentence, and the text has none (null was right)
 *   null_ok        no ask, and the text has no such sentence
 *   missed         no ask, but the text has one
 * Precision = correct / (correct + wrong + wrong_null): the share of shown asks that are right.
 * Coverage = correct / (correct + wrong + missed): of the texts that state a request or problem, the share where
 * the right kind of sentence was found.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findAsk } from "../../src/core/offline/find-ask.js";
import { textKey } from "./ask-data.js";
import { development } from "./holdout.js";
import { loadLabeled } from "./labeled-corpus.js";
import { loadNlbse } from "./nlbse.js";

const here = dirname(fileURLToPath(import.meta.url));
const ANNOTATIONS = resolve(here, "ask-annotations.json");

type Verdict = "correct" | "wrong" | "wrong_null" | "null_ok" | "missed";
interface Annotation {
  ask: string;
  verdict: Verdict;
}

const askKey = (ask: string | null) =>
  ask === null ? "null" : createHash("sha256").update(ask).digest("hex").slice(0, 10);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const seed = arg("--seed") ?? "1";
const n = Number(arg("--n") ?? 60);
const show = process.argv.includes("--show");

const nlbse = loadNlbse("train");
const labeled = loadLabeled();
if (!nlbse || !labeled) {
  console.log("../shared is absent: nothing to measure.");
  process.exit(0);
}
const pool = [
  ...development(labeled).map((r) => ({ title: r.task, description: r.description ?? "" })),
  ...nlbse.map((r) => ({ title: r.title, description: r.body })),
];
const rank = (key: string) => createHash("sha256").update(`ask-sample-${seed}:${key}`).digest("hex");
const sample = pool
  .map((t) => ({ ...t, key: textKey(t.title, t.description) }))
  .sort((a, b) => (rank(a.key) < rank(b.key) ? -1 : 1))
  .slice(0, n);

const annotations: Record<string, Annotation> = existsSync(ANNOTATIONS)
  ? (JSON.parse(readFileSync(ANNOTATIONS, "utf8")) as Record<string, Annotation>)
  : {};

const counts: Record<Verdict, number> = { correct: 0, wrong: 0, wrong_null: 0, null_ok: 0, missed: 0 };
const unjudged: string[] = [];
for (const [i, t] of sample.entries()) {
  const ask = findAsk(t.title, t.description);
  const a = annotations[t.key];
  const judged = a && a.ask === askKey(ask) ? a.verdict : undefined;
  if (judged) counts[judged]++;
  else unjudged.push(t.key);
  if (show || (!judged && process.argv.includes("--unjudged"))) {
    console.log(
      `\n=== ${i + 1}. ${t.key}  ask ${askKey(ask)}  ${judged ?? (a ? `STALE (was ${a.verdict})` : "UNJUDGED")}`,
    );
    console.log(`TITLE: ${t.title}`);
    console.log(t.description.slice(0, Number(arg("--chars") ?? 600)));
    console.log(`--> ASK: ${ask === null ? "null" : `“${ask}”`}`);
  }
}
const shown = counts.correct + counts.wrong + counts.wrong_null;
const stating = counts.correct + counts.wrong + counts.missed;
const judgedCount = sample.length - unjudged.length;
console.log(
  `\nSample: seed ${seed}, ${sample.length} texts, ${judgedCount} judged, ${unjudged.length} unjudged.`,
);
console.log(`Verdicts: ${JSON.stringify(counts)}`);
console.log(
  `Precision (right among shown asks): ${shown ? (counts.correct / shown).toFixed(2) : "n/a"} (${counts.correct}/${shown})`,
);
console.log(
  `Coverage (found among texts that state one): ${stating ? (counts.correct / stating).toFixed(2) : "n/a"} (${counts.correct}/${stating})`,
);
if (unjudged.length) console.log(`Unjudged: ${unjudged.join(" ")}`);
