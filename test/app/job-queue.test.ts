import { describe, expect, it } from "@jest/globals";
import { JobQueue, JobTimeoutError } from "../../src/app/job-queue.js";

describe("JobQueue: one tenant cannot block or starve the others", () => {
  it("takes installations in turn: a tenant with many queued jobs does not make another wait behind all of them", async () => {
    const queue = new JobQueue({ concurrency: 1, maxPending: 100 });
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const job = (installation: string, subject: string, wait?: Promise<void>) => ({
      subject,
      installation,
      run: async () => {
        ran.push(subject);
        await wait;
      },
    });
    queue.enqueue(job("busy", "busy/repo#0", gate));
    for (let i = 1; i <= 5; i++) queue.enqueue(job("busy", `busy/repo#${i}`));
    queue.enqueue(job("quiet", "quiet/repo#1"));
    release();
    await queue.drain();
    expect(ran).toEqual([
      "busy/repo#0",
      "busy/repo#1",
      "quiet/repo#1",
      "busy/repo#2",
      "busy/repo#3",
      "busy/repo#4",
      "busy/repo#5",
    ]);
  });

  it("gives up on a job past its time limit: its signal is aborted and the next job gets the slot", async () => {
    const warnings: object[] = [];
    const queue = new JobQueue({
      concurrency: 1,
      maxPending: 10,
      jobTimeoutMs: 50,
      logger: { warn: (o) => warnings.push(o), error: () => {}, debug: () => {} },
    });
    let reason: unknown;
    queue.enqueue({
      subject: "slow/repo#1",
      installation: "slow",
      run: (signal) =>
        new Promise<void>(() => {
          signal.addEventListener("abort", () => (reason = signal.reason));
        }),
    });
    let otherRan = false;
    queue.enqueue({
      subject: "other/repo#1",
      installation: "other",
      run: async () => void (otherRan = true),
    });
    await queue.drain();
    expect(otherRan).toBe(true);
    expect(reason).toBeInstanceOf(JobTimeoutError);
    expect(queue.stats.timedOut).toBe(1);
    expect(queue.stats.completed).toBe(1);
    expect(warnings).toEqual([expect.objectContaining({ subject: "slow/repo#1", limitMs: 50 })]);
  });

  it("logs why an abandoned job failed when its failure comes after the limit (GitHub unreachable, retried)", async () => {
    const warnings: { msg: string; err?: unknown }[] = [];
    const queue = new JobQueue({
      concurrency: 1,
      maxPending: 10,
      jobTimeoutMs: 30,
      logger: {
        warn: (o, msg) => warnings.push({ msg: msg ?? "", ...(o as object) }),
        error: () => {},
        debug: () => {},
      },
    });
    let failLate!: () => void;
    const late = new Promise<void>((resolve) => (failLate = resolve));
    queue.enqueue({
      subject: "dead/repo#1",
      installation: "dead",
      run: async () => {
        await late;
        throw new Error("connect ECONNREFUSED 127.0.0.1:9");
      },
    });
    await queue.drain();
    expect(queue.stats.timedOut).toBe(1);
    failLate();
    await new Promise((r) => setTimeout(r, 10));
    expect(warnings.map((w) => w.msg)).toEqual([
      "job reached its time limit and was abandoned",
      "an abandoned job failed afterwards",
    ]);
    expect(String(warnings[1]!.err)).toMatch(/ECONNREFUSED/);
  });

  it("a newer job for a subject that replaces a pending one carries the older one's reasons", async () => {
    const queue = new JobQueue({ concurrency: 1, maxPending: 10 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    queue.enqueue({ subject: "a/b#0", run: () => gate });
    const absorbed: string[] = [];
    queue.enqueue({ subject: "a/b#1", deliveryId: "opened", run: async () => {} });
    queue.enqueue({
      subject: "a/b#1",
      deliveryId: "labeled",
      force: true,
      absorb: (older) => absorbed.push(older.deliveryId!),
      run: async () => {},
    });
    release();
    await queue.drain();
    expect(absorbed).toEqual(["opened"]);
  });
});
