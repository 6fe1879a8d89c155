import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { compileForNode } from "./compile-for-node.js";
import { loadCorpus } from "../test/helpers/corpus.js";

export interface RestBenchOptions {
  seconds: number;
  rounds: number;
  connections: number;
}

interface Started {
  child: ChildProcess;
  port: number;
}

/** The servers run as plain JavaScript, as `npm start` runs them (see compile-for-node.ts). */
let compiled: Promise<string> | undefined;
function compiledServers(): Promise<string> {
  compiled ??= compileForNode(new URL("./bench-servers.ts", import.meta.url), "bench-servers.mjs");
  return compiled;
}

export async function startServer(
  mode: "fastify" | "bare" | "fastify-fixed" | "fastify-floor" | "keyed",
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Started> {
  // The same heap cap as `npm start`: V8 otherwise grows the heap lazily on a machine with free memory.
  const flags = (process.env.BENCH_NODE_FLAGS ?? "--max-old-space-size=256").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...flags, await compiledServers(), mode, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    // Generous: the smoke run starts its servers beside the test suite on a shared machine (20 s was passed once).
    const timer = setTimeout(() => reject(new Error(`${mode} server did not start within 60 s`)), 60_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = out.match(/PORT (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { child, port };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const corpus = (
  loadCorpus() ?? [{ task: "Add Stripe checkout", description: "Let free users upgrade to Pro" }]
).map((issue) => ({ task: issue.task, description: issue.description ?? "" }));
const headers = { "content-type": "application/json" };

function requestsFromCorpus() {
  return corpus.map((t) => ({
    method: "POST" as const,
    path: "/score-task",
    headers,
    body: JSON.stringify(t),
  }));
}

/** Every request a task never seen before (the corpus text with a counter), so no memo can help. */
function uniqueRequests() {
  let n = 0;
  return [
    {
      method: "POST" as const,
      path: "/score-task",
      headers,
      setupRequest: (req: Record<string, unknown>) => {
        const t = corpus[n % corpus.length]!;
        n++;
        return {
          ...req,
          body: JSON.stringify({ task: `${t.task.slice(0, 200)} #${n}`, description: t.description }),
        };
      },
    },
  ];
}

export async function load(port: number, seconds: number, connections: number, unique = false) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: unique ? uniqueRequests() : requestsFromCorpus(),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad,
    total: result.requests.total,
  };
}

/**
 * Our server and a bare node:http server answering with a same-size report, loaded alternately in
 * the same run (the machine is shared and noisy: only the ratio is compared).
 */
export async function runRestBench(options: RestBenchOptions): Promise<Record<string, number>> {
  const ours = await startServer("fastify");
  const bare = await startServer("bare");
  // The same server with a scorer that returns fixed verdicts: the HTTP stack's own share.
  const fixed = await startServer("fastify-fixed");
  try {
    const runs = {
      ours: [] as Awaited<ReturnType<typeof load>>[],
      bare: [] as Awaited<ReturnType<typeof load>>[],
      unique: [] as Awaited<ReturnType<typeof load>>[],
      fixed: [] as Awaited<ReturnType<typeof load>>[],
    };
    for (const server of [ours, bare, fixed]) await load(server.port, 1, options.connections); // warm-up
    for (let i = 0; i < options.rounds; i++) {
      runs.ours.push(await load(ours.port, options.seconds, options.connections));
      runs.bare.push(await load(bare.port, options.seconds, options.connections));
      runs.unique.push(await load(ours.port, options.seconds, options.connections, true));
      runs.fixed.push(await load(fixed.port, options.seconds, options.connections));
    }
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    const oursRps = mean(runs.ours.map((r) => r.rps));
    const bareRps = mean(runs.bare.map((r) => r.rps));
    return {
      "rest.ours.rps": Math.round(oursRps),
      "rest.bare.rps": Math.round(bareRps),
      "rest.ratio": Math.round((oursRps / bareRps) * 100) / 100,
      "rest.unique.rps": Math.round(mean(runs.unique.map((r) => r.rps))),
      "rest.unique.ratio": Math.round((mean(runs.unique.map((r) => r.rps)) / bareRps) * 100) / 100,
      "rest.unique.p99_ms": mean(runs.unique.map((r) => r.p99)),
      "rest.http_stack_only.ratio": Math.round((mean(runs.fixed.map((r) => r.rps)) / bareRps) * 100) / 100,
      "rest.ours.p50_ms": mean(runs.ours.map((r) => r.p50)),
      "rest.ours.p99_ms": mean(runs.ours.map((r) => r.p99)),
      "rest.bare.p99_ms": mean(runs.bare.map((r) => r.p99)),
      "rest.ours.non2xx_or_errors": [...runs.ours, ...runs.unique, ...runs.fixed].reduce(
        (s, r) => s + r.bad,
        0,
      ),
      "rest.ours.requests": runs.ours.reduce((s, r) => s + r.total, 0),
      "rest.ours.peak_rss_mb": peakRssMb(ours.child.pid!),
    };
  } finally {
    for (const server of [ours, bare, fixed]) server.child.kill("SIGTERM");
  }
}
