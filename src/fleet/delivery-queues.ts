import type { Logger } from "pino";
import type { Delivery, DeliveryStore } from "./delivery-store.js";

/** Handles one delivery to the end (the App's work for it done or failed): throws to have it retried. */
export type DeliveryHandler = (d: Delivery, attempt: number, signal?: AbortSignal) => Promise<void>;

/**
 * Where the webhook route puts a verified delivery. `accept` resolves only once the delivery is stored
 * (so GitHub's 200 means "kept"), with "duplicate" for a delivery already accepted by any instance.
 */
export interface DeliveryIntake {
  readonly kind: "database" | "redis";
  accept(d: Delivery): Promise<"queued" | "duplicate">;
  /** Start working (and pick up deliveries a previous process accepted but never finished). */
  start(): Promise<void>;
  /** Stop taking work and wait up to `graceMs` for work in hand. */
  close(graceMs: number): Promise<void>;
}

/**
 * One process with a database: deliveries are written to the database before the 200, handled in this
 * process, and marked finished; at start, any left unfinished by a crash are handled again.
 */
export class DatabaseDeliveries implements DeliveryIntake {
  readonly kind = "database" as const;
  private readonly inHand = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: DeliveryStore,
    private readonly handle: DeliveryHandler,
    private readonly logger: Logger,
  ) {}

  async accept(d: Delivery): Promise<"queued" | "duplicate"> {
    if (!(await this.store.accept(d))) return "duplicate";
    this.run(d.id);
    return "queued";
  }

  async start(): Promise<void> {
    const left = await this.store.unfinished();
    if (left.length)
      this.logger.warn({ deliveries: left.length }, "handling deliveries a previous process left unfinished");
    for (const id of left) this.run(id);
  }

  private run(id: string): void {
    if (this.closed) return; // left queued in the database for the next start
    const work = (async () => {
      const d = await this.store.load(id);
      if (!d) return;
      const attempt = await this.store.started(id);
      try {
        await this.handle(d, attempt);
        await this.store.finished(id);
      } catch (err) {
        this.logger.error({ err, delivery: id }, "delivery failed");
        await this.store.finished(id, err instanceof Error ? err.message : String(err));
      }
    })().catch((err: unknown) =>
      this.logger.error({ err, delivery: id }, "delivery record could not be updated"),
    );
    this.inHand.add(work);
    void work.finally(() => this.inHand.delete(work));
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inHand]),
      new Promise((r) => (timer = setTimeout(r, graceMs))),
    ]);
    clearTimeout(timer);
  }
}

export interface RedisDeliveriesOptions {
  redisUrl: string;
  /** Key prefix in Redis. */
  prefix: string;
  /** Deliveries handled at once by this instance. */
  concurrency: number;
  /** Jobs started per second across the whole fleet: GitHub's write limits are per App, not per instance. */
  jobsPerSecond: number;
  /** How long a worker's claim on a job lasts without renewal: after a crash, others retry it after this. */
  lockMs: number;
  attempts: number;
}

/**
 * A fleet on Redis (BullMQ): a delivery is recorded in the database and queued in Redis before the 200;
 * any instance's worker takes it. The job id is the delivery id, so a repeat is one job; the database
 * record keeps that true after the job is gone. Jobs are retried with backoff, and a job whose worker
 * died is taken over once its lock lapses (at-least-once: the App's handlers are idempotent).
 */
export class RedisDeliveries implements DeliveryIntake {
  readonly kind = "redis" as const;
  private queue: import("bullmq").Queue | undefined;
  private worker: import("bullmq").Worker | undefined;
  private connections: import("ioredis").Redis[] = [];

  constructor(
    private readonly store: DeliveryStore,
    private readonly handle: DeliveryHandler,
    private readonly logger: Logger,
    private readonly options: RedisDeliveriesOptions,
  ) {}

  private async connection() {
    const { Redis } = await import("ioredis");
    // BullMQ's workers block on Redis: they need unlimited retries per request.
    const c = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    c.on("error", (err) => this.logger.warn({ err: err.message }, "Redis connection error"));
    this.connections.push(c);
    return c;
  }

  private async ensureQueue() {
    if (!this.queue) {
      const { Queue } = await import("bullmq");
      this.queue = new Queue(QUEUE, { connection: await this.connection(), prefix: this.options.prefix });
    }
    return this.queue;
  }

  async accept(d: Delivery): Promise<"queued" | "duplicate"> {
    const fresh = await this.store.accept(d);
    if (!fresh) return "duplicate";
    const queue = await this.ensureQueue();
    await queue.add(
      "delivery",
      { id: d.id },
      {
        jobId: jobIdOf(d.id),
        attempts: this.options.attempts,
        backoff: { type: "exponential", delay: 2000 },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      },
    );
    return "queued";
  }

  async start(): Promise<void> {
    const { Worker } = await import("bullmq");
    await this.ensureQueue();
    this.worker = new Worker(
      QUEUE,
      async (job) => {
        const id = (job.data as { id: string }).id;
        const d = await this.store.load(id);
        if (!d) return;
        await this.store.started(id);
        await this.handle(d, job.attemptsMade + 1);
        await this.store.finished(id);
      },
      {
        connection: await this.connection(),
        prefix: this.options.prefix,
        concurrency: this.options.concurrency,
        // Shared by every worker of the queue (kept in Redis): the fleet's pace, not each instance's.
        limiter:
          this.options.jobsPerSecond >= 1
            ? { max: Math.round(this.options.jobsPerSecond), duration: 1000 }
            : { max: 1, duration: Math.round(1000 / this.options.jobsPerSecond) },
        lockDuration: this.options.lockMs,
        stalledInterval: Math.max(1000, Math.floor(this.options.lockMs / 2)),
        maxStalledCount: 3,
      },
    );
    this.worker.on("failed", (job, err) => {
      const id = (job?.data as { id?: string } | undefined)?.id;
      this.logger.warn(
        { delivery: id, attempt: job?.attemptsMade, err: err.message },
        "delivery failed; retried with backoff",
      );
      if (id && job && job.attemptsMade >= this.options.attempts) void this.store.finished(id, err.message);
    });
    this.worker.on("error", (err) => this.logger.warn({ err: err.message }, "queue worker error"));
    // Accepted in the database but never queued (the process died between the two): queue them now.
    const left = await this.store.unfinished();
    const queue = await this.ensureQueue();
    for (const id of left)
      await queue.add(
        "delivery",
        { id },
        {
          jobId: jobIdOf(id),
          attempts: this.options.attempts,
          backoff: { type: "exponential", delay: 2000 },
        },
      );
  }

  async close(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const graceful = (async () => {
      // Finish the jobs in hand; jobs not started stay in Redis for the other instances.
      await this.worker?.close();
      await this.queue?.close();
    })();
    await Promise.race([graceful, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    await this.worker?.close(true).catch(() => undefined);
    for (const c of this.connections) c.disconnect();
  }
}

const QUEUE = "task-scorer-deliveries";
/** BullMQ refuses ":" in custom job ids. */
const jobIdOf = (id: string) => id.replace(/:/g, "-");
