import { randomBytes } from "node:crypto";
import { expect, it } from "@jest/globals";
import { REPORT_MARKER } from "../../src/core/render-comment.js";
import { deliverOverHttp, payload } from "../helpers/app-harness.js";
import { freshDatabase, REDIS_URL } from "../helpers/postgres.js";
import { serverWithStandIn, type ServerProcess } from "../helpers/server-with-stand-in.js";
import { describeUnless, missingEnv } from "../helpers/skip.js";

describeUnless(
  missingEnv(["DATABASE_URL", "REDIS_URL"]),
  "a fleet of two instances on PostgreSQL and Redis",
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
    // Two instances, each in its own process (so one can be killed), from the test build. At the end, stop()
    // sends SIGTERM to a live instance and waits for it; the killed one has already exited.
    const fleet = serverWithStandIn({
      instances: 2,
      startTimeoutMs: 30_000,
      hookTimeoutMs: 90_000,
      prepare: async (github) => {
        // Every GitHub call takes a while, so the killed instance has work in hand when it dies.
        github.delayMs = 40;
        db = await freshDatabase();
      },
      env: () => ({
        LOG_LEVEL: "info",
        DATABASE_URL: db!.url,
        REDIS_URL: REDIS_URL!,
        REDIS_PREFIX: `ts-test-${randomBytes(4).toString("hex")}`,
        FLEET_JOBS_PER_SECOND: "50",
        FLEET_LOCK_SECONDS: "3",
        // The stand-in GitHub has no rate limits to respect; the pacing would only slow the test.
        GITHUB_THROTTLE: "off",
      }),
      cleanup: async () => db?.drop(),
    });
    const { github } = fleet;

    async function deliver(to: ServerProcess, n: number) {
      const body = payload("issues", "opened", (p) => {
        p.issue.number = n;
        p.issue.title = `Add CSV export to report ${n}`;
        p.issue.body = "Users copy report tables by hand. Add an Export CSV button that downloads the table.";
      });
      const res = await deliverOverHttp(to.base, "issues", body, `fleet-${n}`, { "x-github-hook-id": "1" });
      return { status: res.status, key: `${body.repository.full_name}#${n}` };
    }

    it("40 deliveries, one instance killed with SIGKILL halfway: every issue ends with exactly one report comment", async () => {
      const [a, b] = fleet.servers as [ServerProcess, ServerProcess];
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
