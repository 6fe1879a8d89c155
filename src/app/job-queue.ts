/**
 * An in-process queue for webhook work. GitHub gives a delivery 10 seconds, a model may take 60:
 * handlers enqueue and return, and the work happens here with bounded concurrency.
 *
 * - Jobs for the same subject (one issue or PR) never run at the same time, so two events cannot
 *   race to create two report comments; a newer pending job for a subject replaces the older one
 *   (only the latest text matters).
 * - A delivery id is accepted once (GitHub redelivers; a person can press "Redeliver").
 * - A job whose content hash equals the last one done for its subject is skipped unless forced.
 */
export interface Job {
  /** One issue or pull request: `owner/repo#number`. */
  subject: string;
  deliveryId?: string | undefined;
  /** Hash of what would be scored (title, body); equal hashes mean nothing new to say. */
  contentHash?: string | undefined;
  /** A person asked (`/score`): run even if nothing changed. */
  force?: boolean;
  run: () => Promise<void>;
}

export interface QueueLogger {
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
  debug: (obj: object, msg?: string) => void;
}

export type EnqueueResult = "queued" | "replaced" | "duplicate-delivery" | "unchanged" | "full";

class BoundedSet {
  private readonly items = new Map<string, true>();
  constructor(private readonly max: number) {}
  has(key: string) {
    return this.items.has(key);
  }
  add(key: string) {
    this.items.delete(key);
    this.items.set(key, true);
    if (this.items.size > this.max) this.items.delete(this.items.keys().next().value!);
  }
}

export class JobQueue {
  private readonly pending = new Map<string, Job>();
  private readonly order: string[] = [];
  private readonly running = new Set<string>();
  private readonly seenDeliveries = new BoundedSet(10_000);
  private readonly lastHash = new Map<string, string>();
  private idle: (() => void)[] = [];
  readonly stats = { queued: 0, completed: 0, failed: 0, skipped: 0 };

  constructor(
    private readonly options: { concurrency: number; maxPending: number; logger?: QueueLogger | undefined },
  ) {}

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
      this.stats.skipped++;
      return "unchanged";
    }
    if (queued) {
      this.pending.set(job.subject, { ...job, force: Boolean(job.force || queued.force) });
      return "replaced";
    }
    if (this.pending.size >= this.options.maxPending) {
      this.options.logger?.warn(
        { subject: job.subject, pending: this.pending.size },
        "queue full: job dropped",
      );
      this.stats.skipped++;
      return "full";
    }
    this.pending.set(job.subject, job);
    this.order.push(job.subject);
    this.stats.queued++;
    this.pump();
    return "queued";
  }

  /** Resolves when nothing is queued or running (used on SIGTERM and in tests). */
  drain(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.running.size < this.options.concurrency) {
      const index = this.order.findIndex((s) => !this.running.has(s));
      if (index < 0) break;
      const subject = this.order.splice(index, 1)[0]!;
      const job = this.pending.get(subject);
      if (!job) continue;
      this.pending.delete(subject);
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
    try {
      await job.run();
      if (job.contentHash) this.lastHash.set(job.subject, job.contentHash);
      this.stats.completed++;
    } catch (error) {
      this.stats.failed++;
      this.options.logger?.error({ err: error, subject: job.subject }, "job failed");
    } finally {
      this.running.delete(job.subject);
      // A job for this subject that arrived while it ran waits in `pending` without a place in `order`.
      if (this.pending.has(job.subject) && !this.order.includes(job.subject)) this.order.push(job.subject);
      if (this.lastHash.size > 50_000) this.lastHash.delete(this.lastHash.keys().next().value!);
      this.pump();
    }
  }
}
