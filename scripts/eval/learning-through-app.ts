/**
 * `npm run eval:learning -- --through-app`: the NLBSE'24 benchmark through the App as a maintainer meets it.
 * For each of the five repositories a stand-in GitHub (test/helpers/fake-github.ts, on loopback) holds its
 * training split as closed issues, labelled as that repository's tracker names the kinds and closed as
 * completed, and its test split as open issues (no labels). The real service (composeService, the embedded
 * database in memory, GHE_HOST at the stand-in, the App's test credentials) receives `installation.created`
 * for the five repositories, learns, backfills, and every task's `kind` is read back from
 * `GET /api/repos/{owner}/{repo}/tasks`. Before: the same run with the closed issues withheld (nothing to
 * learn from: `calibration.used` is false). The issue text is read from ../shared at run time, never stored.
 *
 * `looLearning()`: a repository the shipped model never saw, simulated as `--choose` does (a base model fitted
 * on the other four repositories' training issues), then the learning code on the repository's training
 * issues, read on its test split once.
 */
import pino from "pino";
import type { Service } from "../../src/compose-service.js";
import { KIND_CLASSES, type ModelKind } from "../../src/core/offline/kind-model.js";
import { learnKind, predictKinds } from "../../src/learning/fit-calibration.js";
import { LEARNING } from "../../src/learning/learning-options.js";
import { kindOfLabels } from "../../src/learning/label-kinds.js";
import { deliver, startService, installationCreated } from "../../test/helpers/app-harness.js";
import { startFakeGitHub, type FakeGitHub, type FakeIssue } from "../../test/helpers/fake-github.js";
import { fitKind } from "./fit-kind.js";
import type { NlbseIssue } from "./nlbse.js";

/** Per-class F1 over bug/feature/question; any other predicted kind counts as a miss of the true class. */
export function macroF1Of3(truth: readonly ModelKind[], predicted: readonly string[]): number {
  let sum = 0;
  for (const k of KIND_CLASSES) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < truth.length; i++) {
      if (predicted[i] === k && truth[i] === k) tp++;
      else if (predicted[i] === k) fp++;
      else if (truth[i] === k) fn++;
    }
    sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return sum / KIND_CLASSES.length;
}

interface RepoFigures {
  repo: string;
  tasks: number;
  calibration: { closedIssues: number; used: boolean };
  /** Macro-F1 over the three kinds, a task of another kind counted wrong. */
  all: number;
  /** Macro-F1 over the tasks whose board kind is one of the three (the others left out). */
  threeOnly: number;
  /** How many tasks the board gave another kind (docs, refactor, chore, junk). */
  otherKinds: number;
  seconds: number;
}

const BACKFILL_TIMEOUT_MS = 300_000;

async function tasksOf(service: Service, repo: string) {
  const out: { number: number; kind: string }[] = [];
  let cursor: string | null = null;
  let head: { backfill: { state: string }; calibration: { closedIssues: number; used: boolean } } | undefined;
  do {
    const url: string = `/api/repos/${repo}/tasks?limit=500&sort=number${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res: { statusCode: number; body: string } = await service.server.inject({ method: "GET", url });
    if (res.statusCode !== 200) throw new Error(`tasks of ${repo}: ${res.statusCode} ${res.body}`);
    const page = JSON.parse(res.body) as {
      backfill: { state: string };
      calibration: { closedIssues: number; used: boolean };
      tasks: { number: number; kind: string }[];
      nextCursor: string | null;
    };
    head ??= page;
    out.push(...page.tasks);
    cursor = page.nextCursor;
  } while (cursor);
  return { head: head!, tasks: out };
}

/** One run through the App: install on the five repositories, wait for each backfill, read the kinds. */
async function runThroughApp(
  github: FakeGitHub,
  train: readonly NlbseIssue[],
  test: readonly NlbseIssue[],
  labelNames: Record<string, Record<ModelKind, string>>,
  withHistory: boolean,
): Promise<RepoFigures[]> {
  const repos = [...new Set(test.map((r) => r.repo))];
  const truthOf = new Map<string, Map<number, ModelKind>>();
  for (const repo of repos) {
    const closed = train.filter((r) => r.repo === repo);
    const issues: FakeIssue[] = [];
    if (withHistory)
      closed.forEach((r, i) =>
        issues.push({
          number: i + 1,
          title: r.title,
          body: r.body,
          labels: [labelNames[repo]![r.label]],
          state: "closed",
          state_reason: "completed",
        }),
      );
    const truth = new Map<number, ModelKind>();
    test
      .filter((r) => r.repo === repo)
      .forEach((r, i) => {
        const number = closed.length + 1 + i;
        truth.set(number, r.label);
        issues.push({ number, title: r.title, body: r.body });
      });
    truthOf.set(repo, truth);
    github.repoIssues.set(repo, issues);
  }
  const service = await startService(
    { GHE_HOST: github.host, GHE_PROTOCOL: "http", DATA_DIR: "memory://" },
    undefined,
    pino({ level: "silent" }),
  );
  try {
    const started = performance.now();
    const install = installationCreated(repos);
    const res = await deliver(service, "installation", install);
    if (res.statusCode !== 200) throw new Error(`installation.created answered ${res.statusCode}`);
    const figures: RepoFigures[] = [];
    for (const repo of repos) {
      const truth = truthOf.get(repo)!;
      const closedWanted = withHistory ? train.filter((r) => r.repo === repo).length : 0;
      let read: Awaited<ReturnType<typeof tasksOf>> | undefined;
      for (const deadline = Date.now() + BACKFILL_TIMEOUT_MS; Date.now() < deadline;) {
        const res = await service.server.inject({ method: "GET", url: `/api/repos/${repo}/tasks?limit=1` });
        const body =
          res.statusCode === 200 ? res.json<{ backfill: { state: string } } & object>() : undefined;
        const cal = (body as { calibration?: { closedIssues: number } } | undefined)?.calibration;
        if (body?.backfill.state === "done" && cal?.closedIssues === closedWanted) {
          read = await tasksOf(service, repo);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!read) throw new Error(`the backfill of ${repo} did not finish in ${BACKFILL_TIMEOUT_MS / 1000} s`);
      const numbers = [...truth.keys()];
      const byNumber = new Map(read.tasks.map((t) => [t.number, t.kind]));
      const t = numbers.map((n) => truth.get(n)!);
      const p = numbers.map((n) => byNumber.get(n) ?? "missing");
      const kept = numbers.flatMap((n, i) =>
        (KIND_CLASSES as readonly string[]).includes(p[i]!) ? [i] : [],
      );
      figures.push({
        repo,
        tasks: read.tasks.length,
        calibration: read.head.calibration,
        all: macroF1Of3(t, p),
        threeOnly: macroF1Of3(
          kept.map((i) => t[i]!),
          kept.map((i) => p[i]!),
        ),
        otherKinds: numbers.length - kept.length,
        seconds: (performance.now() - started) / 1000,
      });
    }
    return figures;
  } finally {
    await service.close();
    github.reset();
  }
}

export async function throughApp(
  train: readonly NlbseIssue[],
  test: readonly NlbseIssue[],
  labelNames: Record<string, Record<ModelKind, string>>,
): Promise<void> {
  const github = await startFakeGitHub();
  try {
    console.error("through the App: before (no closed issues to learn from)…");
    const before = await runThroughApp(github, train, test, labelNames, false);
    console.error("through the App: after (install learns from the training split as closed issues)…");
    const after = await runThroughApp(github, train, test, labelNames, true);
    const f = (v: number) => v.toFixed(3);
    const mean = (rows: RepoFigures[], k: "all" | "threeOnly") =>
      rows.reduce((s, r) => s + r[k], 0) / rows.length;
    console.log(
      "\nThrough the App (install, learn, backfill, GET /api/repos/{owner}/{repo}/tasks): macro-F1 over bug/feature/question of the board's kinds",
    );
    console.log(
      "| repository | open tasks | calibration after | before: all tasks | after: all tasks | other kinds before → after | before: three kinds only | after: three kinds only |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
    before.forEach((b, i) => {
      const a = after[i]!;
      console.log(
        `| ${b.repo} | ${a.tasks} | closedIssues ${a.calibration.closedIssues}, used ${a.calibration.used} | ${f(b.all)} | ${f(a.all)} | ${b.otherKinds} → ${a.otherKinds} | ${f(b.threeOnly)} | ${f(a.threeOnly)} |`,
      );
    });
    console.log(
      `| **mean of 5** | | | **${f(mean(before, "all"))}** | **${f(mean(after, "all"))}** | | **${f(mean(before, "threeOnly"))}** | **${f(mean(after, "threeOnly"))}** |`,
    );
    console.log(
      `(all tasks: a task the board calls docs, refactor, chore or junk counts as wrong; three kinds only: those tasks left out. Wall time ${f(before.at(-1)!.seconds)} s before, ${f(after.at(-1)!.seconds)} s after.)`,
    );
  } finally {
    await github.close();
  }
}

/**
 * A repository the shipped model never saw: the base fitted on the other four repositories' training
 * issues; learning (learnKind, the service's settings and keep rule) on the repository's training issues,
 * labelled as its tracker names them and read back through the label rules; macro-F1 on its test split.
 */
export function looLearning(
  train: readonly NlbseIssue[],
  test: readonly NlbseIssue[],
  labelNames: Record<string, Record<ModelKind, string>>,
): void {
  const repos = [...new Set(train.map((r) => r.repo))];
  const rows: string[] = [];
  let sumBefore = 0;
  let sumAfter = 0;
  for (const repo of repos) {
    const base = fitKind(train.filter((r) => r.repo !== repo));
    const closed = train
      .filter((r) => r.repo === repo)
      .flatMap((r, i) => {
        const labels = [labelNames[repo]![r.label]];
        const kind = kindOfLabels(labels);
        return kind
          ? [{ number: i + 1, title: r.title, body: r.body, labels, stateReason: "completed", kind }]
          : [];
      });
    const learned = learnKind(closed, LEARNING, base);
    const open = test.filter((r) => r.repo === repo);
    const truth = open.map((r) => r.label);
    const before = macroF1Of3(truth, predictKinds(open, undefined, base));
    const after = macroF1Of3(truth, predictKinds(open, learned.adjustment, base));
    sumBefore += before;
    sumAfter += after;
    const d = learned.decision;
    rows.push(
      `| ${repo} | ${closed.length} | ${d.kept ? "kept" : "not kept"} (CV ${d.shipped} → ${d.adjusted}) | ${before.toFixed(3)} | ${after.toFixed(3)} |`,
    );
    console.error(`  ${repo} done`);
  }
  console.log(
    "\nA repository the shipped model never saw (base: the other four repositories; learning code, not the App), kind model alone",
  );
  console.log("| repository | labelled closed issues | kind adjustment | macro-F1 base | base + learning |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(r);
  console.log(
    `| **mean of 5** | | | **${(sumBefore / repos.length).toFixed(3)}** | **${(sumAfter / repos.length).toFixed(3)}** |`,
  );
}
