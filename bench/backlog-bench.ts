// The backlog (issue 17): the silent backfill of a repository's open issues from a stand-in GitHub that answers
// as GitHub does, and the board's JSON (and CSV) for a repository of thousands of tasks. The service runs as
// `npm start` runs it (compiled, the same heap cap, its JSON log on a pipe), in a process of its own, so that its
// CPU time and memory can be read from /proc without the benchmark's. PostgreSQL when DATABASE_URL is set (a
// database of its own, dropped after), else the embedded PGlite in a temporary folder.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { scoreOffline } from "../src/core/offline/offline-scorer.js";
import { buildReport } from "../src/core/score-task.js";
import { BacklogStore, type TaskRecord } from "../src/backlog/backlog-store.js";
import { TASK_KINDS } from "../src/backlog/task-list.schema.js";
import { openDatabase } from "../src/storage/database.js";
import {
  appProcessEnv,
  deliverOverHttp,
  INSTALLATION_ID,
  installationCreated,
} from "../test/helpers/app-harness.js";
import { loadCorpus } from "../test/helpers/corpus.js";
import { freshDatabase } from "../test/helpers/postgres.js";
import { compileForNode } from "./compile-for-node.js";
import { FakeGitHub, type FakeIssue } from "../test/helpers/fake-github.js";

export interface BacklogBenchOptions {
  smoke: boolean;
}

interface Sizes {
  issues: number;
  pulls: number;
  /** GitHub's latency per answer, which the backfill waits for (not the service's own time). */
  githubDelayMs: number;
  tasks: number;
  seconds: number;
  connections: number;
}

const SIZES: Record<"smoke" | "full", Sizes> = {
  smoke: { issues: 150, pulls: 8, githubDelayMs: 5, tasks: 300, seconds: 1, connections: 4 },
  full: { issues: 1000, pulls: 50, githubDelayMs: 300, tasks: 5000, seconds: 5, connections: 4 },
};

/** The server as `npm start` runs it (compiled JavaScript, the same heap cap), from .bench/. */
export const compiledMain = () => compileForNode(new URL("../src/main.ts", import.meta.url), "main.mjs");

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; 100 clock ticks a second). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function rssMb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A small deterministic PRNG (mulberry32): the same made-up backlog on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real issue texts (the shared corpus, when it sits beside the clone), else three made-up shapes. */
function texts(): { task: string; description: string }[] {
  const corpus = loadCorpus();
  if (corpus) return corpus.map((c) => ({ task: c.task, description: c.description ?? "" }));
  return [
    {
      task: "Crash when saving a file",
      description:
        "Steps to reproduce:\n1. Open a document\n2. Press save\n\nExpected: saved. Actual: TypeError: cannot read properties of undefined.",
    },
    {
      task: "Add CSV export for reports",
      description: "Twelve customers asked for CSV export this quarter. Acceptance: one row per task, UTF-8.",
    },
    { task: "question about setup", description: "How do I configure this?" },
  ];
}

/** A repository's open items, newest first as GitHub lists them: `issues` issues and `pulls` pull requests among them. */
function openItems(issues: number, pulls: number): FakeIssue[] {
  const source = texts();
  const rand = random(17);
  const out: FakeIssue[] = [];
  const every = pulls > 0 ? Math.floor((issues + pulls) / pulls) : Infinity;
  let pullsLeft = pulls;
  for (let n = 1; n <= issues + pulls; n++) {
    const created = new Date(Date.UTC(2024, 0, 1) + n * 3_600_000);
    const updated = new Date(created.getTime() + Math.floor(rand() * 200) * 86_400_000);
    const dates = { created_at: created.toISOString(), updated_at: updated.toISOString() };
    if (pullsLeft > 0 && n % every === 0) {
      pullsLeft--;
      out.push({
        number: n,
        title: `Bump dependency ${n}`,
        body: "Bumps a dependency.\n\n---\n\nDependabot will resolve any conflicts with this PR.",
        labels: ["dependencies"],
        pull_request: true,
        ...dates,
      });
      continue;
    }
    const t = source[n % source.length]!;
    // Every issue's text its own (a counter in the title): no memo or stored hash can spare the scoring.
    out.push({
      number: n,
      title: `${t.task.slice(0, 200)} (${n})`,
      body: t.description,
      labels: n % 3 === 0 ? ["bug"] : n % 3 === 1 ? ["enhancement", "help wanted"] : [],
      pull_request: false,
      ...dates,
    });
  }
  return out;
}

export interface Main {
  child: ChildProcess;
  url: string;
  /** Resolves with the first JSON log line whose `msg` matches. */
  logged(msg: RegExp, timeoutMs: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * The App installed on `repo` (a signed `installation.created`), and the service's own process measured from the
 * delivery until it logs `until`: wall and CPU seconds, and RSS at the start, at the end and at its peak (sampled
 * every 20 ms). `t0` is when the delivery was sent (performance.now()).
 */
export async function installAndMeasure(server: Main, repo: string, deliveryId: string, until: RegExp) {
  const pid = server.child.pid!;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  try {
    const rssStart = rssMb(pid);
    const cpuStart = cpuSeconds(pid);
    const t0 = performance.now();
    const done = server.logged(until, 600_000);
    const res = await deliverOverHttp(server.url, "installation", installationCreated([repo]), deliveryId);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`installation.created answered ${res.status}`);
    const end = await done;
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(pid) - cpuStart;
    const rssEnd = rssMb(pid);
    return { end, t0, wall, cpu, rssStart, rssEnd, peak: Math.max(peak, rssEnd) };
  } finally {
    clearInterval(sampler);
  }
}

/** `node build/src/main.js` as `npm start` runs it, with `env`, in `cwd` (no stray .env is read). */
export async function startMain(main: string, env: Record<string, string>, cwd: string): Promise<Main> {
  const child = spawn(process.execPath, ["--max-old-space-size=256", main], {
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const waiters: { msg: RegExp; resolve: (line: Record<string, unknown>) => void }[] = [];
  const seen: Record<string, unknown>[] = [];
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const text of lines) {
      // Only the lines a waiter may ask for are parsed: the access lines are many.
      if (
        !text.includes('"msg":"backfill') &&
        !text.includes('"msg":"learning') &&
        !text.includes("listening on")
      )
        continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      seen.push(line);
      for (const w of [...waiters])
        if (w.msg.test(String(line.msg))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  const exited = new Promise<number | null>((r) => child.once("exit", r));
  const logged = (msg: RegExp, timeoutMs: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = seen.find((l) => msg.test(String(l.msg)));
      if (found) return resolve(found);
      const timer = setTimeout(
        () => reject(new Error(`no log line ${msg} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.push({
        msg,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before logging ${msg}`));
      });
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const line = await logged(/listening on/, 60_000);
    const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(String(line.msg))![1]!;
    return { child, url, logged, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The App installed on a repository with `issues` open issues (and some pull requests): from the
 * `installation.created` delivery to the backfill's "done", the service's CPU time and memory, and what it asked
 * of GitHub.
 */
/**
 * A stand-in GitHub holding one repository's issues (answering after `delayMs`), and the service as npm start
 * runs it, with the App's test credentials and the offline scorer, pointed at it.
 */
export async function startAppOnStandIn(
  main: string,
  where: Where,
  repo: string,
  items: FakeIssue[],
  delayMs: number,
): Promise<{ github: FakeGitHub; server: Main }> {
  const github = await new FakeGitHub().start();
  github.repoIssues.set(repo, items);
  github.delayMs = delayMs;
  // GitHub's hour of 5,000 requests, counted down as they are made.
  github.rateLimitRemaining = 5000;
  github.rateLimitReset = Math.floor(Date.now() / 1000) + 3600;
  github.rateLimitCountsDown = true;
  const server = await startMain(main, appProcessEnv(github, where.env), where.cwd);
  return { github, server };
}

async function backfill(main: string, where: Where, sizes: Sizes): Promise<Record<string, number>> {
  const repo = "acme/widgets";
  const items = openItems(sizes.issues, sizes.pulls);
  const { github, server } = await startAppOnStandIn(main, where, repo, items, sizes.githubDelayMs);
  const pid = server.child.pid!;
  try {
    // Memory: sampled through the run, and as each page of issues is asked for (all earlier pages are scored
    // by then: the backfill takes one page at a time).
    const newestFirst = [...items].sort((a, b) => b.number - a.number);
    const issuesBeforePage = (page: number) =>
      newestFirst.slice(0, (page - 1) * 100).filter((i) => !i.pull_request).length;
    const fifth = Math.ceil(sizes.issues / 5);
    let rssAfterFifth: number | undefined;
    github.onRequest = (r) => {
      if (r.path !== `/repos/${repo}/issues`) return;
      const page = Number(new URLSearchParams(r.query).get("page") ?? 1);
      if (rssAfterFifth === undefined && issuesBeforePage(page) >= fifth) rssAfterFifth = rssMb(pid);
    };
    const { end, wall, cpu, rssStart, rssEnd, peak } = await installAndMeasure(
      server,
      repo,
      "bench-install-1",
      /^backfill: (done|paused|stopped|failed)/,
    );
    if (end.msg !== "backfill: done") throw new Error(`the backfill did not finish: ${JSON.stringify(end)}`);

    const list = (await (await fetch(`${server.url}/api/repos/${repo}/tasks?limit=1`)).json()) as {
      total: number;
      backfill: { done: number };
    };
    const calls = github.requests;
    // The open issues' listing (learning's listing of the closed ones is bench/learning-bench.ts's row).
    const listCalls = calls.filter(
      (r) => r.method === "GET" && r.path === `/repos/${repo}/issues` && !r.query.includes("state=closed"),
    ).length;
    const perIssue = calls.filter((r) => /^\/repos\/[^/]+\/[^/]+\/(issues|pulls)\/\d+$/.test(r.path)).length;
    const writes = calls.filter((r) => r.method !== "GET" && !r.path.endsWith("/access_tokens")).length;
    // GitHub's latency, waited for one request at a time (the backfill never has two in flight).
    const pacing = (calls.length * sizes.githubDelayMs) / 1000;
    return {
      "backlog.backfill_1000.issues": sizes.issues,
      "backlog.backfill_1000.scored": list.total,
      "backlog.backfill_1000.own_cpu_s": round(cpu, 2),
      "backlog.backfill_1000.wall_s": round(wall, 2),
      "backlog.backfill_1000.github_delay_ms": sizes.githubDelayMs,
      "backlog.backfill_1000.wall_minus_github_s": round(wall - pacing, 2),
      "backlog.backfill_1000.list_calls": listCalls,
      "backlog.backfill_1000.per_issue_gets": perIssue,
      "backlog.backfill_1000.api_calls": calls.length,
      "backlog.backfill_1000.github_writes": writes,
      "backlog.backfill_1000.rss_start_mb": Math.round(rssStart),
      "backlog.backfill_1000.rss_peak_mb": Math.round(peak),
      "backlog.backfill_1000.rss_growth_mb": round(rssEnd - (rssAfterFifth ?? rssStart)),
    };
  } finally {
    await server.stop();
    await github.close();
  }
}

/** `n` stored tasks of one public repository, with varied scores, kinds, flags and dates, straight into the store. */
async function seedBoard(where: Where, repo: string, n: number): Promise<void> {
  const database = await openDatabase(where.open);
  try {
    const rand = random(5000);
    // Real reports (their stored size matters: each row keeps the whole report), varied around them.
    const bases = texts().map((t, i) => ({
      title: t.task,
      report: buildReport(t, scoreOffline(t), new Date(Date.UTC(2026, 0, 1, 0, i))).report,
    }));
    const kinds = [...TASK_KINDS, "bug", "bug", "feature", "feature"] as const;
    await new BacklogStore(database.db).noteRepository(repo, {
      installationId: INSTALLATION_ID,
      private: false,
    });
    await database.db.transaction().execute(async (trx) => {
      const store = new BacklogStore(trx);
      for (let i = 1; i <= n; i++) {
        const base = bases[i % bases.length]!;
        const score = round(1 + rand() * 9, 2);
        const persona = () => Math.max(1, Math.min(10, Math.round(score + (rand() - 0.5) * 4)));
        const created = new Date(Date.UTC(2023, 0, 1) + i * 3_600_000);
        const record: TaskRecord = {
          repository: repo,
          number: i,
          title: `${base.title.slice(0, 180)} (${i})`,
          url: `https://github.com/${repo}/issues/${i}`,
          score,
          approved: score >= 6.5,
          needsHuman: rand() < 0.2,
          kind: kinds[Math.floor(rand() * kinds.length)]!,
          personas: {
            revenue: persona(),
            architect: persona(),
            ux: persona(),
            product: persona(),
            marketing: persona(),
          },
          report: base.report,
          contentHash: `bench-${i}`,
          createdAt: created,
          updatedAt: new Date(created.getTime() + Math.floor(rand() * 400) * 86_400_000),
        };
        await store.saveTask(record);
      }
    });
  } finally {
    await database.close();
  }
}

/** autocannon on one path; with the server's CPU time per request (from /proc: the load generator shares the machine). */
async function load(url: string, pid: number, path: string, seconds: number, connections: number) {
  const cpu = cpuSeconds(pid);
  const r = await autocannon({ url, connections, duration: seconds, requests: [{ method: "GET", path }] });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
    cpuMs: round(((cpuSeconds(pid) - cpu) * 1000) / Math.max(1, r.requests.total), 2),
  };
}

/** The board's JSON (the default page, and a filtered and re-sorted one) and the CSV of every task. */
async function board(main: string, where: Where, sizes: Sizes): Promise<Record<string, number>> {
  const repo = "acme/board";
  await seedBoard(where, repo, sizes.tasks);
  // The board's own speed, not its per-client limit: every request comes from this one address, and a fast machine
  // sends more than the default 1,200 a minute (a smoke run once read 15,700 answers of 429 as failures).
  const server = await startMain(main, { ...where.env, BACKLOG_REQUESTS_PER_MINUTE: "10000000" }, where.cwd);
  try {
    const first = (await (await fetch(`${server.url}/api/repos/${repo}/tasks`)).json()) as {
      total: number;
      tasks: { score: number }[];
    };
    const scores = first.tasks.map((t) => t.score);
    if (
      first.total !== sizes.tasks ||
      first.tasks.length !== 100 ||
      scores.some((s, i) => i > 0 && s > scores[i - 1]!)
    )
      throw new Error(`unexpected first page: total ${first.total}, ${first.tasks.length} tasks`);

    const path = `/api/repos/${repo}/tasks`;
    const filtered = `${path}?kind=bug&sort=-updated`;
    const pid = server.child.pid!;
    if (sizes.seconds > 1) await load(server.url, pid, path, 1, sizes.connections); // warm-up
    // One viewer at a time (the latency a person meets), then several at once (PGlite answers one query at a
    // time, so they queue).
    const json = await load(server.url, pid, path, sizes.seconds, 1);
    const narrow = await load(server.url, pid, filtered, sizes.seconds, 1);
    const jsonN = await load(server.url, pid, path, sizes.seconds, sizes.connections);
    const narrowN = await load(server.url, pid, filtered, sizes.seconds, sizes.connections);

    const csvTimes: number[] = [];
    let csvRows = 0;
    const csvCpu = cpuSeconds(pid);
    const downloads = sizes.seconds > 1 ? 3 : 1;
    for (let i = 0; i < downloads; i++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${path}?format=csv`);
      const text = await res.text();
      csvTimes.push(performance.now() - t0);
      csvRows = text.trimEnd().split("\r\n").length - 1;
    }
    const csvCpuMs = ((cpuSeconds(pid) - csvCpu) * 1000) / downloads;
    csvTimes.sort((a, b) => a - b);
    const many = `backlog.board_json_5000_${sizes.connections}_at_once`;
    return {
      "backlog.board.tasks": sizes.tasks,
      "backlog.board_json_5000.p50_ms": json.p50,
      "backlog.board_json_5000.p99_ms": json.p99,
      "backlog.board_json_5000.rps": Math.round(json.rps),
      "backlog.board_json_5000.server_cpu_ms": json.cpuMs,
      "backlog.board_json_5000_bug_by_updated.p50_ms": narrow.p50,
      "backlog.board_json_5000_bug_by_updated.p99_ms": narrow.p99,
      "backlog.board_json_5000_bug_by_updated.server_cpu_ms": narrow.cpuMs,
      [`${many}.p50_ms`]: jsonN.p50,
      [`${many}.p99_ms`]: jsonN.p99,
      [`${many}.rps`]: Math.round(jsonN.rps),
      [`${many}_bug_by_updated.p99_ms`]: narrowN.p99,
      "backlog.board_json_5000.non2xx": json.bad + narrow.bad + jsonN.bad + narrowN.bad,
      "backlog.board_csv_5000_ms": Math.round(csvTimes[Math.floor(csvTimes.length / 2)]!),
      "backlog.board_csv_5000.server_cpu_ms": Math.round(csvCpuMs),
      "backlog.board_csv_5000.rows": csvRows,
      "backlog.board.peak_rss_mb": Math.round(rssMb(server.child.pid!, "VmHWM")),
    };
  } finally {
    await server.stop();
  }
}

/** Where the service keeps the backlog: its own PostgreSQL database, or PGlite in a temporary folder. */
export interface Where {
  open: { url: string } | { dataDir: string };
  env: Record<string, string>;
  cwd: string;
}

export async function runBacklogBench(
  options: BacklogBenchOptions,
): Promise<Record<string, number | string>> {
  const sizes = SIZES[options.smoke ? "smoke" : "full"];
  const main = await compiledMain();
  const dir = mkdtempSync(join(tmpdir(), "ts-backlog-bench-"));
  const databases: { url: string; drop: () => Promise<void> }[] = [];
  const place = async (name: string): Promise<Where> => {
    if (process.env.DATABASE_URL) {
      const fresh = await freshDatabase();
      databases.push(fresh);
      return { open: { url: fresh.url }, env: { DATABASE_URL: fresh.url }, cwd: dir };
    }
    const dataDir = join(dir, name);
    return { open: { dataDir }, env: { DATA_DIR: dataDir }, cwd: dir };
  };
  try {
    return {
      "backlog.engine": process.env.DATABASE_URL ? "postgres" : "pglite",
      ...(await backfill(main, await place("backfill"), sizes)),
      ...(await board(main, await place("board"), sizes)),
    };
  } finally {
    for (const d of databases) await d.drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
