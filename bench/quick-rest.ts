// scratch: alternate modes, print ratio to bare and server CPU µs per request
import { readFileSync } from "node:fs";
import { startServer, load } from "./rest-bench.js";
const modes = (process.argv[2] ?? "bare,fastify").split(",") as "bare"[];
const secs = Number(process.argv[3] ?? 4);
const rounds = Number(process.argv[4] ?? 2);
const cpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10_000;
}; // µs (100 Hz)
const started = [];
for (const m of modes) started.push({ m, s: await startServer(m) });
for (const { s } of started) await load(s.port, 1, 50);
const res: Record<string, number[]> = {};
const us: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++)
  for (const { m, s } of started) {
    const c0 = cpu(s.child.pid!);
    const x = await load(s.port, secs, 50, process.env.UNIQUE === "1");
    const c1 = cpu(s.child.pid!);
    (res[m] ??= []).push(Math.round(x.rps));
    (us[m] ??= []).push(Math.round((c1 - c0) / x.total));
  }
for (const { s } of started) s.child.kill("SIGTERM");
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
for (const [m, v] of Object.entries(res))
  console.log(
    m.padEnd(14),
    v.join(" "),
    "ratio",
    (mean(v) / mean(res.bare ?? v)).toFixed(2),
    "cpu µs/req",
    us[m]!.join(" "),
  );
