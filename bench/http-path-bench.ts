import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { startServer } from "./rest-bench.js";

/** CPU seconds (user + system, all its threads) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are the 12th and 13th fields after the command name, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function cpuPerRequest(port: number, pid: number, seconds: number, connections: number) {
  const body = JSON.stringify({ task: "Refactor" });
  const before = cpuSeconds(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      { method: "POST", path: "/score-task", headers: { "content-type": "application/json" }, body },
    ],
  });
  const used = cpuSeconds(pid) - before;
  return {
    usPerRequest: (used * 1e6) / result.requests.total,
    rps: result.requests.average,
    bad: result.non2xx,
  };
}

/**
 * The HTTP path's own cost: CPU per request of our server against bare node:http, with a one-word task, where
 * the judge costs next to nothing. CPU per request (not throughput) so that the load generator, which shares the
 * machine, does not blur the figure.
 */
export async function runHttpPathBench(options: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<Record<string, number>> {
  const ours = await startServer("fastify");
  const bare = await startServer("bare");
  // fastify alone answering a fixed report: how much of the ratio is the framework's own floor.
  const floor = await startServer("fastify-floor");
  const servers = [ours, bare, floor];
  try {
    for (const s of servers) await cpuPerRequest(s.port, s.child.pid!, 1, options.connections);
    const us: number[][] = [[], [], []];
    let bad = 0;
    // The three take turns, round after round, so a slower stretch of a shared machine falls on all of them.
    for (let i = 0; i < options.rounds; i++)
      for (const [j, s] of servers.entries()) {
        const r = await cpuPerRequest(s.port, s.child.pid!, options.seconds, options.connections);
        us[j]!.push(r.usPerRequest);
        bad += r.bad;
      }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const [ourUs, bareUs, floorUs] = us.map(median) as [number, number, number];
    return {
      // The machine is shared: a ratio read at a load of 12 on 2 cores is not one read on a quiet machine.
      "http.load_1m": Math.round(loadavg()[0]! * 10) / 10,
      "http.one_word.cpu_us_per_request": Math.round(ourUs * 10) / 10,
      "http.bare.cpu_us_per_request": Math.round(bareUs * 10) / 10,
      "http.one_word.cpu_vs_bare": Math.round((ourUs / bareUs) * 100) / 100,
      "http.fastify_floor.cpu_vs_bare": Math.round((floorUs / bareUs) * 100) / 100,
      "http.one_word.non2xx": bad,
    };
  } finally {
    for (const s of servers) s.child.kill("SIGTERM");
  }
}
