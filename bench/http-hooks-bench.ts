import { HOT_PATH_PARTS } from "../src/http/build-server.js";
import { cpuPerRequest } from "./http-path-bench.js";
import { startServer } from "./rest-bench.js";

/**
 * What each part of the one-word REST path costs (issue 36, item 9): the server as `npm start` runs it, against
 * the same server with one part left out (a HOT_PATH_PARTS name; "logger": no logger at all; "scoring": a scorer
 * returning fixed verdicts) or one opt-in part switched on ("+cors", "+rate-limit"), and bare node:http. Every
 * variant is a process of its own; all take turns, round after round, so a slower stretch of a shared machine
 * falls on each of them. A part's cost is the full server's CPU per request less the variant's (for "+" rows,
 * the variant's less the full server's): differences of a few µs are within the noise of one run, so the table
 * in docs/benchmarks.md is the median of several.
 */
export const VARIANTS = [...HOT_PATH_PARTS, "logger", "scoring", "+cors", "+rate-limit"] as const;

export async function runHttpHooksBench(options: {
  seconds: number;
  warmSeconds: number;
  rounds: number;
  connections: number;
  variants?: readonly string[];
}): Promise<Record<string, number>> {
  const variants = options.variants ?? VARIANTS;
  // Every server is started and warmed before any is measured: a young process spends CPU compiling and growing
  // its heap, which has nothing to do with the part left out.
  const full = await startServer("fastify");
  const bare = await startServer("bare");
  const started = new Map<string, Awaited<ReturnType<typeof startServer>>>();
  const us = new Map<string, number[]>();
  const add = (name: string, v: number) => us.set(name, [...(us.get(name) ?? []), v]);
  let bad = 0;
  // Each measurement follows a second of unmeasured load on the same server: a server idle for a minute (while
  // the others are measured) has had its heap shrunk and cold code dropped by V8, and pays to grow them again.
  const measure = async (name: string, s: typeof full) => {
    await cpuPerRequest(s.port, s.child.pid!, 1, options.connections);
    const r = await cpuPerRequest(s.port, s.child.pid!, options.seconds, options.connections);
    add(name, r.usPerRequest);
    bad += r.bad;
  };
  try {
    for (const variant of variants) started.set(variant, await startServer("fastify", [variant]));
    for (const s of [full, bare, ...started.values()])
      await cpuPerRequest(s.port, s.child.pid!, options.warmSeconds, options.connections);
    for (let i = 0; i < options.rounds; i++) {
      await measure("bare", bare);
      // Each variant right after the full server, so the pair shares the same minute of a shared machine.
      for (const variant of variants) {
        await measure(`full@${variant}`, full);
        await measure(variant, started.get(variant)!);
      }
    }
  } finally {
    for (const s of [full, bare, ...started.values()]) s.child.kill("SIGTERM");
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const round1 = (x: number) => Math.round(x * 10) / 10;
  // Each variant against the full server measured right before it (the same minute of the machine).
  const out: Record<string, number> = {};
  const fullUs = median(variants.flatMap((v) => us.get(`full@${v}`)!));
  const bareUs = median(us.get("bare")!);
  out["hooks.full.cpu_us_per_request"] = round1(fullUs);
  out["hooks.bare.cpu_us_per_request"] = round1(bareUs);
  out["hooks.full.cpu_vs_bare"] = Math.round((fullUs / bareUs) * 100) / 100;
  for (const variant of variants) {
    const pairs = us.get(variant)!.map((v, i) => us.get(`full@${variant}`)![i]! - v);
    const cost = variant.startsWith("+") ? -median(pairs) : median(pairs);
    const name = variant.startsWith("+") ? `hooks.${variant.slice(1)}_on` : `hooks.${variant}`;
    out[`${name}.cpu_us`] = round1(cost);
    out[`${name}.share`] = Math.round((cost / fullUs) * 1000) / 1000;
  }
  out["hooks.non2xx"] = bad;
  return out;
}
