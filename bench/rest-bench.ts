import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
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

async function startServer(mode: "fastify" | "bare"): Promise<Started> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", new URL("./bench-servers.ts", import.meta.url).pathname, mode],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${mode} server did not start`)), 20_000);
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

function requestsFromCorpus() {
  const corpus = loadCorpus() ?? [
    { task: "Add Stripe checkout", description: "Let free users upgrade to Pro" },
  ];
  return corpus.map((issue) => ({
    method: "POST" as const,
    path: "/score-task",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ task: issue.task, description: issue.description ?? "" }),
  }));
}

async function load(port: number, seconds: number, connections: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: requestsFromCorpus(),
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
  try {
    const runs = {
      ours: [] as Awaited<ReturnType<typeof load>>[],
      bare: [] as Awaited<ReturnType<typeof load>>[],
    };
    await load(ours.port, 1, options.connections); // warm-up: JIT and connection setup
    await load(bare.port, 1, options.connections);
    for (let i = 0; i < options.rounds; i++) {
      runs.ours.push(await load(ours.port, options.seconds, options.connections));
      runs.bare.push(await load(bare.port, options.seconds, options.connections));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const oursRps = mean(runs.ours.map((r) => r.rps));
    const bareRps = mean(runs.bare.map((r) => r.rps));
    return {
      "rest.ours.rps": Math.round(oursRps),
      "rest.bare.rps": Math.round(bareRps),
      "rest.ratio": Math.round((oursRps / bareRps) * 100) / 100,
      "rest.ours.p50_ms": mean(runs.ours.map((r) => r.p50)),
      "rest.ours.p99_ms": mean(runs.ours.map((r) => r.p99)),
      "rest.bare.p99_ms": mean(runs.bare.map((r) => r.p99)),
      "rest.ours.non2xx_or_errors": runs.ours.reduce((s, r) => s + r.bad, 0),
      "rest.ours.requests": runs.ours.reduce((s, r) => s + r.total, 0),
      "rest.ours.peak_rss_mb": peakRssMb(ours.child.pid!),
    };
  } finally {
    ours.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
  }
}
