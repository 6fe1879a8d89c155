import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { PRIVATE_KEY, payload, sign } from "../app/app-harness.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { DATABASE_URL, freshDatabase, REDIS_URL, skipMessage } from "../helpers/postgres.js";

skipMessage("Fleet integration test (PostgreSQL + Redis)", ["DATABASE_URL", "REDIS_URL"]);

interface Instance {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/** One instance of the service, as `npm start` runs it, in its own process (so it can be killed). */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start:\n${output}`)), 30_000);
    const poll = setInterval(() => {
      const m = output.match(/listening on (http:\/\/[\d.]+:\d+)/);
      if (m) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]!);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(poll);
      reject(new Error(`instance exited (${code}):\n${output}`));
    });
  });
  return { child, base, output: () => output };
}

(DATABASE_URL && REDIS_URL ? describe : describe.skip)(
  "a fleet of two instances on PostgreSQL and Redis",
  () => {
    let github: FakeGitHub;
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      github = await startFakeGitHub();
      // Every GitHub call takes a while, so the killed instance has work in hand when it dies.
      github.delayMs = 40;
      db = await freshDatabase();
      const env = {
        APP_ID: "123",
        PRIVATE_KEY,
        WEBHOOK_SECRET: "test-webhook-secret",
        GHE_HOST: github.host,
        GHE_PROTOCOL: "http",
        SCORER: "offline",
        LOG_LEVEL: "info",
        DATABASE_URL: db.url,
        REDIS_URL: REDIS_URL!,
        REDIS_PREFIX: `ts-test-${randomBytes(4).toString("hex")}`,
        FLEET_JOBS_PER_SECOND: "50",
        FLEET_LOCK_SECONDS: "3",
        // The stand-in GitHub has no rate limits to respect; the pacing would only slow the test.
        GITHUB_THROTTLE: "off",
      };
      a = await startInstance(env);
      b = await startInstance(env);
    }, 90_000);

    afterAll(async () => {
      const running = [a, b].filter((i) => i && i.child.exitCode === null && i.child.signalCode === null);
      const exited = running.map((i) => new Promise((r) => i.child.once("exit", r)));
      for (const i of running) i.child.kill("SIGTERM");
      await Promise.all(exited);
      await github?.close();
      await db?.drop();
    }, 60_000);

    async function deliver(to: Instance, n: number) {
      const body = payload("issues", "opened", (p) => {
        p.issue.number = n;
        p.issue.title = `Add CSV export to report ${n}`;
        p.issue.body = "Users copy report tables by hand. Add an Export CSV button that downloads the table.";
      });
      const raw = JSON.stringify(body);
      const res = await fetch(`${to.base}/api/github/webhooks`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "issues",
          "x-github-delivery": `fleet-${n}`,
          "x-github-hook-id": "1",
          "x-hub-signature-256": sign(raw),
        },
        body: raw,
      });
      return { status: res.status, key: `${body.repository.full_name}#${n}` };
    }

    it("40 deliveries, one instance killed with SIGKILL halfway: every issue ends with exactly one report comment", async () => {
      const keys: string[] = [];
      for (let n = 1; n <= 20; n++) {
        const r = await deliver(n % 2 ? a : b, n);
        expect(r.status).toBe(200);
        keys.push(r.key);
      }
      a.child.kill("SIGKILL");
      for (let n = 21; n <= 40; n++) {
        const r = await deliver(b, n);
        expect(r.status).toBe(200);
        keys.push(r.key);
      }
      const done = () => keys.every((k) => github.commentsOn(k).length >= 1);
      for (let i = 0; i < 600 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
      // Past the dead instance's lock: anything it held has been retried by now.
      await new Promise((r) => setTimeout(r, 4000));
      if (process.env.FLEET_DEBUG) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync("/tmp/fleet-a.log", a.output());
        writeFileSync("/tmp/fleet-b.log", b.output());
      }
      const counts = keys.map(
        (k) => github.commentsOn(k).filter((c) => c.body.includes(REPORT_MARKER)).length,
      );
      expect({
        missing: counts.filter((c) => c === 0).length,
        doubled: counts.filter((c) => c > 1).length,
      }).toEqual({
        missing: 0,
        doubled: 0,
      });
    }, 120_000);
  },
);
