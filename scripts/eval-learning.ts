/**
 * `npm run eval:learning`: what learning from a repository's own history does on the NLBSE'24 benchmark.
 * Each repository's training split stands for its closed issues (labelled as that repository labels them:
 * the label names below, read back by src/learning/label-kinds.ts), its test split for its open issues. The
 * learning is the service's own (learnCalibration, the reader with the calibration); macro-F1 per repository
 * before (shipped model) and after. `--choose` runs the cross-validation on the training split that chose the
 * settings (scripts/eval/learning-cv.ts); the test split is read only without it, once.
 * `--through-app` runs the benchmark through the App (install, learn, backfill, the tasks API; see
 * scripts/eval/learning-through-app.ts), then a repository the shipped model never saw (a base model fitted on
 * the other four repositories, then learning on the repository's own training issues).
 */
import { learnCalibration, predictKinds } from "../src/learning/fit-calibration.js";
import { macroF1 } from "../src/learning/learning-steps.js";
import type { ModelKind } from "../src/core/offline/kind-model.js";
import { loadNlbse } from "./eval/nlbse.js";
import { chooseLearning } from "./eval/learning-cv.js";
import { looLearning, throughApp } from "./eval/learning-through-app.js";

/** How each repository names the three kinds on GitHub (checked on each tracker's label list). */
export const LABEL_NAMES: Record<string, Record<ModelKind, string>> = {
  "facebook/react": { bug: "Type: Bug", feature: "Type: Feature Request", question: "Type: Question" },
  "tensorflow/tensorflow": { bug: "type:bug", feature: "type:feature", question: "type:support" },
  "microsoft/vscode": { bug: "bug", feature: "feature-request", question: "*question" },
  "bitcoin/bitcoin": { bug: "Bug", feature: "Feature", question: "Questions and Help" },
  "opencv/opencv": { bug: "bug", feature: "feature", question: "question (invalid tracker)" },
};

if (process.argv.includes("--choose")) {
  chooseLearning();
} else if (process.argv.includes("--through-app")) {
  const train = loadNlbse("train");
  const test = loadNlbse("test");
  if (!train || !test) {
    console.error("eval:learning: ../shared/benchmarks/nlbse24 not found.");
    process.exit(1);
  }
  await throughApp(train, test, LABEL_NAMES);
  looLearning(train, test, LABEL_NAMES);
} else {
  const train = loadNlbse("train");
  const test = loadNlbse("test");
  if (!train || !test) {
    console.error("eval:learning: ../shared/benchmarks/nlbse24 not found.");
    process.exit(1);
  }
  const rows: string[] = [];
  let sumBefore = 0;
  let sumAfter = 0;
  const repos = [...new Set(train.map((r) => r.repo))];
  for (const repo of repos) {
    const closed = train
      .filter((r) => r.repo === repo)
      .map((r, i) => ({
        number: i + 1,
        title: r.title,
        body: r.body,
        labels: [LABEL_NAMES[repo]![r.label]],
        stateReason: "completed",
      }));
    const started = performance.now();
    const result = learnCalibration(repo, closed);
    const ms = performance.now() - started;
    const open = test.filter((r) => r.repo === repo);
    const truth = open.map((r) => r.label);
    const before = macroF1(truth, predictKinds(open));
    const after = macroF1(truth, predictKinds(open, result.calibration.kind));
    sumBefore += before;
    sumAfter += after;
    rows.push(
      `| ${repo} | ${result.labelled} | ${result.kind.kept ? "kept" : "not kept"} (CV ${result.kind.shipped} → ${result.kind.adjusted}) | ${before.toFixed(3)} | ${after.toFixed(3)} | ${(ms / 1000).toFixed(1)} s |`,
    );
  }
  console.log(
    "| repository | labelled closed issues | kind adjustment | macro-F1 before | after | learning time |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(r);
  console.log(
    `| **mean of 5** | | | **${(sumBefore / repos.length).toFixed(3)}** | **${(sumAfter / repos.length).toFixed(3)}** | |`,
  );
}
