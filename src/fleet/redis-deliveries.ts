/** A fleet's webhook queue in Redis (BullMQ): deliveries stored in PostgreSQL first, then queued for any instance. */
import type { Logger } from "pino";
import type { Delivery, DeliveryStore } from "./delivery-store.js";
import { cannotStore, message, type DeliveryHandler, type DeliveryIntake } from "./delivery-intake.js";

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
 * record keeps that true after the job is gone. A failed attempt is retried with backoff, and a job whose
 * worker died is taken over once its lock lapses (at-least-once: the App's handlers are idempotent).
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

  private async connection(forWorker: boolean) {
    const { Redis } = await import("ioredis");
    // A worker blocks on Redis and must retry for ever; the webhook route must fail fast instead, so that
    // GitHub sees the failure and the delivery can be redelivered.
    const c = forWorker
      ? new Redis(this.options.redisUrl, { maxRetriesPerRequest: null })
      : new Redis(this.options.redisUrl, {
          maxRetriesPerRequest: 2,
          enableOfflineQueue: false,
          connectTimeout: 5000,
        });
    c.on("error", (err) => this.logger.warn({ err: err.message }, "Redis connection error"));
    this.connections.push(c);
    return c;
  }

  private async ensureQueue() {
    if (!this.queue) {
      const { Queue } = await import("bullmq");
      this.queue = new Queue(QUEUE, {
        connection: await this.connection(false),
        prefix: this.options.prefix,
      });
      this.queue.on("error", (err) => this.logger.warn({ err: err.message }, "delivery queue error"));
    }
    return this.queue;
  }

  private async enqueue(id: string) {
    const queue = await this.ensureQueue();
    // The same job id again is a no-op while the job exists: re-adding an unfinished delivery is safe.
    await queue.add(
      "delivery",
      { id },
      {
        jobId: jobIdOf(id),
        attempts: this.options.attempts,
        backoff: { type: "exponential", delay: 2000 },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      },
    );
  }

  async accept(d: Delivery): Promise<"queued" | "duplicate"> {
    try {
      const outcome = await this.store.accept(d);
      if (outcome === "duplicate") return "duplicate";
      // "again": recorded earlier but maybe never queued (Redis refused then): queue it now.
      await this.enqueue(d.id);
      return "queued";
    } catch (err) {
      throw cannotStore(err);
    }
  }

  async start(): Promise<void> {
    const { Worker } = await import("bullmq");
    this.worker = new Worker(
      QUEUE,
      async (job) => {
        const id = (job.data as { id: string }).id;
        const d = await this.store.load(id);
        if (!d) return;
        // BullMQ already gives a job to one worker at a time; the lease is the database's record of it.
        await this.store.claim(id, this.options.lockMs * 2);
        try {
          await this.handle(d, job.attemptsMade + 1);
        } catch (err) {
          const last = job.attemptsMade + 1 >= this.options.attempts;
          await (last ? this.store.finished(id, message(err)) : this.store.requeue(id, message(err)));
          throw err;
        }
        await this.store.finished(id);
      },
      {
        connection: await this.connection(true),
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
    this.worker.on("failed", (job, err) =>
      this.logger.warn(
        {
          delivery: (job?.data as { id?: string } | undefined)?.id,
          attempt: job?.attemptsMade,
          err: err.message,
        },
        "delivery failed; retried with backoff while attempts remain",
      ),
    );
    this.worker.on("error", (err) => this.logger.warn({ err: err.message }, "queue worker error"));
    // Accepted in the database but not finished (and perhaps never queued): queue them (again).
    try {
      for (const id of await this.store.unfinished()) await this.enqueue(id);
    } catch (err) {
      this.logger.warn({ err: message(err) }, "could not requeue unfinished deliveries");
    }
  }

  async close(graceMs: number): Promise<void> {
    // Finish the jobs in hand; jobs not started stay in Redis for the other instances. Past the grace
    // period, the connections are dropped: a job cut off then is retried elsewhere once its lock lapses.
    const graceful = (async () => {
      await this.worker?.close();
      await this.queue?.close();
    })().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([graceful, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    for (const c of this.connections) c.disconnect();
  }
}

const QUEUE = "task-scorer-deliveries";
/** BullMQ refuses ":" in custom job ids. */
const jobIdOf = (id: string) => id.replace(/:/g, "-");
