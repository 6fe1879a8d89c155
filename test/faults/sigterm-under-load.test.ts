import { spawn } from "node:child_process";
import { describe, expect, it } from "@jest/globals";
import { builtCommand } from "../helpers/server-build.js";

/**
 * SIGTERM while requests are in flight: the server stops accepting, finishes what it accepted, and
 * exits 0. "Accepted" is what the server logged as answered; every one of those must reach the
 * client complete. Requests refused at the door fail at the connection level, never with a 5xx.
 */
describe("SIGTERM under load", () => {
  it("loses no accepted request and exits cleanly", async () => {
    const child = spawn(...builtCommand("src/main.ts"), {
      cwd: new URL("../..", import.meta.url).pathname,
      env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", SCORER: "offline" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = out.match(/listening on (http:\/\/[\d.]+:\d+)/);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 20);
      child.once("exit", (code) => reject(new Error(`exited early (${code}): ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    const total = 400;
    let sent = 0;
    let ok = 0;
    let refused = 0;
    const bad: string[] = [];
    const worker = async () => {
      while (sent < total) {
        const i = sent++;
        if (i === 150) child.kill("SIGTERM");
        try {
          const res = await fetch(`${base}/score-task`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ task: `Task ${i}: add dark mode`, description: "Users asked for it." }),
          });
          const text = await res.text();
          if (
            res.status === 200 &&
            (JSON.parse(text) as { expertScores: unknown[] }).expertScores.length === 5
          )
            ok++;
          else bad.push(`${res.status} ${text.slice(0, 80)}`);
        } catch {
          refused++; // the connection was refused or closed before the request was accepted
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    expect(await exited).toBe(0);

    const answered = out
      .split("\n")
      .filter((l) => l.includes('"msg":"request"') && l.includes('"status":200')).length;
    expect(bad).toEqual([]);
    expect(ok).toBe(answered);
    expect(ok).toBeGreaterThanOrEqual(150);
    expect(ok + refused).toBe(total);
  }, 30_000);
});
