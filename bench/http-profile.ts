// `node --import tsx bench/http-profile.ts [fastify|fastify-floor|bare] [seconds]`: where the one-word REST path's
// CPU goes, part by part (docs/benchmarks.md, "The HTTP path's own cost"). The server runs under `--cpu-prof` with
// the http part's load; each profile sample goes to the innermost frame that belongs to a part.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startServer } from "./rest-bench.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Matched against "function url", innermost frame first; the first part a frame names takes the sample. */
const PARTS: [RegExp, string][] = [
  [/^\(idle\)/, "idle"],
  [/^\(garbage collector\)/, "garbage collector"],
  [/^\(program\)/, "program (V8)"],
  [/^(writev|writevGeneric|writeString) /, "socket write"],
  [/cjs\/loader|esm\/|bootstrap\/realm|compileSourceTextModule|readFileUtf8|internalModuleStat/, "start-up"],
  [/^(record|flush) .*bench-servers|pino\/|sonic-boom|^atTime /, "access log"],
  [/^observeRequest /, "metrics"],
  [
    /^(genReqId|randomUUID|lazyRequestLogger|incomingRequest) |LazyRequestLogger|logger-factory/,
    "request id, request logger",
  ],
  [/^(sharedJson|textOf|serialize) /, "serialization"],
  [
    /^(scoreTask|buildReport|score|readingOf|isoTimestamp|expertScoresOf|orderedOnce|computeStats|isApproved|Outcome|BuiltReport) .*bench-servers/,
    "handler and scoring",
  ],
  [
    /zod\/|^(validatorCompiler|quickScoreRequest|withinCodePoints|codePointLength|hasDiffHeader) /,
    "validation",
  ],
  [/secure-json-parse|^isUtf8 |content-type-parser/, "body"],
  [/^corsHook|access-control/, "CORS"],
  [/find-my-way|toad-cache/, "routing"],
  [/node_modules\/fastify\//, "fastify"],
  // Last: our own hooks and routes not named above (the media type check, the x-request-id header, ...).
  [/bench-servers\.mjs/, "other code of ours (hooks, routes)"],
];

function byPart(profile: Profile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const time = new Map<number, number>();
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const partOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = nodes.get(at)!.callFrame;
      const name = `${f.functionName || "(anonymous)"} ${f.url}`;
      for (const [re, part] of PARTS) if (re.test(name)) return part;
    }
    return "node (HTTP parser, streams, events)";
  };
  const out = new Map<string, number>();
  for (const [id, us] of time) out.set(partOf(id), (out.get(partOf(id)) ?? 0) + us);
  return out;
}

const mode = (process.argv[2] ?? "fastify") as "fastify" | "fastify-floor" | "bare";
const seconds = Number(process.argv[3] ?? 8);
const dir = mkdtempSync(join(tmpdir(), "http-profile-"));
process.env.BENCH_NODE_FLAGS = `--max-old-space-size=256 --cpu-prof --cpu-prof-dir=${dir}`;
const server = await startServer(mode);
const body = JSON.stringify({ task: "Refactor" });
const load = (duration: number) =>
  autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 32,
    duration,
    requests: [
      { method: "POST", path: "/score-task", headers: { "content-type": "application/json" }, body },
    ],
  });
let requests = 0;
for (const duration of [2, seconds]) requests += (await load(duration)).requests.total;
server.child.kill("SIGTERM");
await new Promise((resolve) => server.child.once("exit", resolve));
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!;
const parts = byPart(JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile);
rmSync(dir, { recursive: true, force: true });
let busy = 0;
for (const [part, us] of parts) if (part !== "idle" && part !== "start-up") busy += us;
console.log(`${mode}: ${requests} requests; main thread busy ${(busy / requests).toFixed(1)} µs per request`);
for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1]))
  if (part !== "idle" && part !== "start-up")
    console.log(
      `${(us / requests).toFixed(2).padStart(8)} µs ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${part}`,
    );
