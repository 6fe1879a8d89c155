// The defaults are the configuration's (APP_JOB_TIMEOUT_SECONDS, APP_QUEUE_MAX_PENDING_PER_INSTALLATION).
import { DEFAULT_JOB_TIMEOUT_MS, DEFAULT_MAX_PENDING_PER_INSTALLATION } from "../config/app-env.schema.js";

/**
 * An in-process queue for webhook work. GitHub gives a delivery 10 seconds, a model may take 60:
 * handlers enqueue and return, and the work happens here with bounded concurrency.
 *
 * - Jobs for the same subject (one issue or PR) never run at the same time, so two events cannot
 *   race to create two report comments; a newer pending job for a subject replaces the older one
 *   (only the latest text matters).
 * - A delivery id is accepted once (GitHub redelivers; a person can press "Redeliver").
 * - A job whose content hash equals the last one done for its subject is skipped unless forced.
 * - Installations take turns: each has its own line, and the next free slot goes to the next
 *   installation in rotation, so one busy tenant cannot starve the others.
 * - Every job has a time limit; past it, its signal is aborted and its slot is given to the next
 *   job (the work is abandoned, not waited for), so one slow tenant cannot block the others.
 */
export interface Job {
  /** One issue or pull request: `owner/repo#number`. */
  subject: string;
  deliveryId?: string | undefined;
  /** Hash of what would be scored (title, body); equal hashes mean nothing new to say. */
  contentHash?: string | undefined;
  /** A person asked (`/score`): run even if nothing changed. */
  force?: boolean;
  /** Whose work this is (the GitHub installation): installations take turns. */
  installation?: string | undefined;
  /**
   * Called with another job for the same subject whose work this one takes over (a newer job
   * replacing a pending one, or a pending one absorbing an unchanged newer one), so the reasons
   * of both are kept.
   */
  absorb?: (older: Job) => void;
  /** `signal` aborts when the job's time limit is reached. */
  run: (signal: AbortSignal) => Promise<void>;
}

export interface QueueLogger {
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
  debug: (obj: object, msg?: string) => void;
}

export class JobTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`The job did not finish within its time limit of ${limitMs / 1000} s.`);
    this.name = "JobTimeoutError";
  }
}

/**
 * A job that cannot be queued now: the webhook answers 503 so that GitHub shows the delivery as failed
 * (and it can be redelivered), instead of a 200 for work that was dropped.
 */
export class QueueFullError extends Error {
  constructor(readonly scope: "installation" | "all") {
    super(
      scope === "installation"
        ? "This installation already has the most jobs waiting that one installation may have; redeliver later."
        : "The job queue is full; redeliver later.",
    );
    this.name = "QueueFullError";
  }
}

export type EnqueueResult =
  "queued" | "replaced" | "duplicate-delivery" | "unchanged" | "full" | "full-installation";

class BoundedSet {
  private readonly items = new Map<string, true>();
  constructor(private readonly max: number) {}
  has(key: string) {
    return this.items.has(key);
  }
  delete(key: string) {
    this.items.delete(key);
  }
  add(key: string) {
    this.items.delete(key);
    this.items.set(key, true);
    if (this.items.size > this.max) this.items.delete(this.items.keys().next().value!);
  }
}

export class JobQueue {
  private readonly pending = new Map<string, Job>();
  /** Waiting jobs per installation, for the per-installation cap. */
  private readonly pendingBy = new Map<string, number>();
  /** Subjects waiting for a slot, one line per installation, in arrival order. */
  private readonly lanes = new Map<string, string[]>();
  /** Installations with waiting subjects; the one served last goes to the back. */
  private ring: string[] = [];
  private readonly running = new Set<string>();
  private readonly seenDeliveries = new BoundedSet(10_000);
  private readonly lastHash = new Map<string, string>();
  private idle: (() => void)[] = [];
  private readonly subjectWaiters = new Map<string, ((failure: string | undefined) => void)[]>();
  /** Why the last job for a subject did not finish (failed, timed out, dropped), until one does. */
  private readonly failures = new Map<string, string>();
  readonly stats = { queued: 0, completed: 0, failed: 0, skipped: 0, timedOut: 0 };
  readonly jobTimeoutMs: number;

  constructor(
    private readonly options: {
      concurrency: number;
      maxPending: number;
      /** One installation's waiting jobs at most: one tenant cannot fill the queue for the others. */
      maxPendingPerInstallation?: number | undefined;
      logger?: QueueLogger | undefined;
      jobTimeoutMs?: number | undefined;
    },
  ) {
    this.jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  }

  get size(): number {
    return this.pending.size + this.running.size;
  }

  enqueue(job: Job): EnqueueResult {
    if (job.deliveryId) {
      if (this.seenDeliveries.has(job.deliveryId)) {
        this.stats.skipped++;
        return "duplicate-delivery";
      }
      this.seenDeliveries.add(job.deliveryId);
    }
    const queued = this.pending.get(job.subject);
    const sameAsQueued = queued && queued.contentHash === job.contentHash;
    const sameAsDone =
      !this.running.has(job.subject) && job.contentHash && this.lastHash.get(job.subject) === job.contentHash;
    if (!job.force && (sameAsQueued || (!queued && sameAsDone))) {
      // The pending job will do this work; it still takes this event's reasons along.
      if (queued) queued.absorb?.(job);
      this.stats.skipped++;
      return "unchanged";
    }
    if (queued) {
      // The same object is kept (not a copy): the caller may know its job by identity.
      job.absorb?.(queued);
      job.force = Boolean(job.force || queued.force);
      job.installation ??= queued.installation;
      this.release(queued);
      this.pendingBy.set(job.installation ?? "", (this.pendingBy.get(job.installation ?? "") ?? 0) + 1);
      this.pending.set(job.subject, job);
      return "replaced";
    }
    const installation = job.installation ?? "";
    const mine = this.pendingBy.get(installation) ?? 0;
    const perInstallation = this.options.maxPendingPerInstallation ?? DEFAULT_MAX_PENDING_PER_INSTALLATION;
    if (this.pending.size >= this.options.maxPending || mine >= perInstallation) {
      this.options.logger?.warn(
        { subject: job.subject, installation, pending: this.pending.size, pendingForInstallation: mine },
        mine >= perInstallation ? "installation's queue full: job refused" : "queue full: job refused",
      );
      // The delivery id was not used: a redelivery of it must be accepted.
      if (job.deliveryId) this.seenDeliveries.delete(job.deliveryId);
      this.stats.skipped++;
      return mine >= perInstallation ? "full-installation" : "full";
    }
    this.pendingBy.set(installation, mine + 1);
    this.pending.set(job.subject, job);
    this.line(job);
    this.stats.queued++;
    this.pump();
    return "queued";
  }

  /** Resolves when nothing is queued or running (used on SIGTERM and in tests). */
  drain(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Resolves when nothing is queued or running for this subject: the latest event for it has been
   * handled (a durable delivery is finished only then), with the reason if that last job did not finish.
   */
  idleFor(subject: string): Promise<string | undefined> {
    if (!this.pending.has(subject) && !this.running.has(subject))
      return Promise.resolve(this.failures.get(subject));
    return new Promise((resolve) => {
      const list = this.subjectWaiters.get(subject);
      if (list) list.push(resolve);
      else this.subjectWaiters.set(subject, [resolve]);
    });
  }

  private wakeSubject(subject: string): void {
    if (this.pending.has(subject) || this.running.has(subject)) return;
    const waiters = this.subjectWaiters.get(subject);
    if (!waiters) return;
    this.subjectWaiters.delete(subject);
    const failure = this.failures.get(subject);
    for (const resolve of waiters) resolve(failure);
  }

  private noteFailure(subject: string, reason: string | undefined): void {
    if (reason === undefined) this.failures.delete(subject);
    else {
      this.failures.set(subject, reason);
      if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
    }
  }

  private release(job: Job): void {
    const key = job.installation ?? "";
    const n = (this.pendingBy.get(key) ?? 1) - 1;
    if (n > 0) this.pendingBy.set(key, n);
    else this.pendingBy.delete(key);
  }

  /** Put a waiting job in its installation's line. */
  private line(job: Job): void {
    const key = job.installation ?? "";
    const lane = this.lanes.get(key);
    if (lane) {
      if (!lane.includes(job.subject)) lane.push(job.subject);
    } else {
      this.lanes.set(key, [job.subject]);
      this.ring.push(key);
    }
  }

  /** The next runnable subject: the first installation in the ring with one, which then goes to the back. */
  private next(): string | undefined {
    for (const key of this.ring) {
      const lane = this.lanes.get(key)!;
      const index = lane.findIndex((s) => !this.running.has(s));
      if (index < 0) continue;
      const subject = lane.splice(index, 1)[0]!;
      this.ring = this.ring.filter((k) => k !== key);
      if (lane.length > 0) this.ring.push(key);
      else this.lanes.delete(key);
      return subject;
    }
    return undefined;
  }

  private pump(): void {
    while (this.running.size < this.options.concurrency) {
      const subject = this.next();
      if (subject === undefined) break;
      const job = this.pending.get(subject);
      if (!job) continue;
      this.pending.delete(subject);
      this.release(job);
      this.running.add(subject);
      void this.execute(job);
    }
    if (this.size === 0) {
      const waiters = this.idle;
      this.idle = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async execute(job: Job): Promise<void> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new JobTimeoutError(this.jobTimeoutMs));
        resolve("timeout");
      }, this.jobTimeoutMs);
    });
    let abandoned = false;
    try {
      const work = job.run(controller.signal);
      // Past the limit the work is abandoned; its late failure must not become an unhandled rejection, but it is
      // logged: it says why the job ran out of time (GitHub unreachable: "connect ECONNREFUSED …" after retries).
      work.catch((error: unknown) => {
        if (abandoned && !(error instanceof JobTimeoutError))
          this.options.logger?.warn(
            { err: error, subject: job.subject },
            "an abandoned job failed afterwards",
          );
      });
      const outcome = await Promise.race([work.then(() => "done" as const), limit]);
      if (outcome === "timeout") {
        abandoned = true;
        this.stats.timedOut++;
        this.noteFailure(job.subject, `the job did not finish within ${this.jobTimeoutMs / 1000} s`);
        this.options.logger?.warn(
          { subject: job.subject, installation: job.installation, limitMs: this.jobTimeoutMs },
          "job reached its time limit and was abandoned",
        );
      } else {
        if (job.contentHash) this.lastHash.set(job.subject, job.contentHash);
        this.noteFailure(job.subject, undefined);
        this.stats.completed++;
      }
    } catch (error) {
      this.stats.failed++;
      this.noteFailure(job.subject, error instanceof Error ? error.message : String(error));
      this.options.logger?.error({ err: error, subject: job.subject }, "job failed");
    } finally {
      clearTimeout(timer);
      this.running.delete(job.subject);
      // A job for this subject that arrived while it ran waits in `pending` without a place in a line.
      const waiting = this.pending.get(job.subject);
      if (waiting) this.line(waiting);
      if (this.lastHash.size > 50_000) this.lastHash.delete(this.lastHash.keys().next().value!);
      this.pump();
      this.wakeSubject(job.subject);
    }
  }
}
