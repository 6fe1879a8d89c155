import type { Logger } from "pino";
import { StorageError } from "../storage/storage-error.js";
import type { Delivery, DeliveryStore } from "./delivery-store.js";

/** Handles one delivery to the end (the App's work for it done); throws to have it retried. */
export type DeliveryHandler = (d: Delivery, attempt: number) => Promise<void>;

/** Thrown by a handler that cannot take the delivery now (the job queue is full): try again later, uncounted. */
export class RetryLaterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryLaterError";
  }
}

/**
 * How many times a delivery is started before it is given up. Each start that never finished (the
 * process died while handling it: out of memory, killed) counts, so one poisonous delivery cannot
 * crash every restart for ever.
 */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Told once when a delivery is given up, to say so where the maintainers look. */
export type GiveUp = (d: Delivery, attempts: number) => Promise<void>;

/**
 * Where the webhook route puts a verified delivery. `accept` resolves only once the delivery is stored
 * (so GitHub's 200 means "kept"), with "duplicate" for a delivery already handled by any instance.
 */
export interface DeliveryIntake {
  readonly kind: "database" | "redis";
  accept(d: Delivery): Promise<"queued" | "duplicate">;
  /** Start working (and pick up deliveries a process that died accepted but never finished). */
  start(): Promise<void>;
  /** Stop taking work and wait up to `graceMs` for work in hand; always returns by then. */
  close(graceMs: number): Promise<void>;
}

export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function cannotStore(err: unknown): StorageError {
  return new StorageError(
    `The delivery could not be stored (${message(err)}); GitHub shows it as failed, and it can be redelivered.`,
  );
}

/** How long an instance holds a delivery it handles: longer than any job's limit (60 s by default). */
export const DELIVERY_LEASE_MS = 5 * 60_000;

/**
 * Instances with a database and no Redis: deliveries are written to the database before the 200 and handled
 * by the instance that took them, under a lease. Every minute (and at start) an instance picks up what a
 * process that died left: accepted, unfinished, lease run out. A failed delivery is marked failed, and a
 * person's redelivery from GitHub runs it again.
 */
export class DatabaseDeliveries implements DeliveryIntake {
  readonly kind = "database" as const;
  private readonly inHand = new Set<Promise<void>>();
  private closed = false;
  private sweeper: NodeJS.Timeout | undefined;

  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly giveUp: GiveUp | undefined;

  constructor(
    private readonly store: DeliveryStore,
    private readonly handle: DeliveryHandler,
    private readonly logger: Logger,
    options: { leaseMs?: number; maxAttempts?: number; giveUp?: GiveUp } = {},
  ) {
    this.leaseMs = options.leaseMs ?? DELIVERY_LEASE_MS;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.giveUp = options.giveUp;
  }

  async accept(d: Delivery): Promise<"queued" | "duplicate"> {
    let outcome;
    try {
      outcome = await this.store.accept(d);
    } catch (err) {
      throw cannotStore(err);
    }
    if (outcome === "duplicate") return "duplicate";
    this.run(d.id);
    return "queued";
  }

  async start(): Promise<void> {
    await this.sweep(true);
    this.sweeper = setInterval(() => void this.sweep(false), 60_000);
    this.sweeper.unref();
  }

  private async sweep(atStart: boolean): Promise<void> {
    try {
      const left = await this.store.unfinished();
      if (left.length && atStart)
        this.logger.warn(
          { deliveries: left.length },
          "handling deliveries left unfinished by a process that stopped",
        );
      for (const id of left) this.run(id);
    } catch (err) {
      this.logger.warn({ err: message(err) }, "could not look for unfinished deliveries");
    }
  }

  private run(id: string): void {
    if (this.closed) return; // stays queued in the database for the next start
    const work = (async () => {
      const attempt = await this.store.claim(id, this.leaseMs);
      if (attempt === undefined) return; // another instance has it, or it is finished
      const d = await this.store.load(id);
      if (!d) return;
      if (attempt > this.maxAttempts) {
        const why = `given up after ${attempt - 1} attempts that never finished (the process stopped while handling it)`;
        this.logger.error({ delivery: id, event: d.event, attempts: attempt - 1 }, `delivery ${why}`);
        await this.store.finished(id, why);
        await this.giveUp?.(d, attempt - 1).catch((err: unknown) =>
          this.logger.warn({ err: message(err), delivery: id }, "could not tell the repository"),
        );
        return;
      }
      try {
        await this.handle(d, attempt);
        await this.store.finished(id);
      } catch (err) {
        if (err instanceof RetryLaterError) {
          // Not this delivery's fault: back to the queue, uncounted; the next sweep takes it.
          this.logger.warn({ err: err.message, delivery: id }, "delivery deferred");
          await this.store.defer(id, err.message);
          return;
        }
        this.logger.error({ err: message(err), delivery: id }, "delivery failed");
        await this.store.finished(id, message(err));
      }
    })().catch((err: unknown) =>
      this.logger.error({ err: message(err), delivery: id }, "delivery record could not be updated"),
    );
    this.inHand.add(work);
    void work.finally(() => this.inHand.delete(work));
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inHand]),
      new Promise((r) => (timer = setTimeout(r, graceMs))),
    ]);
    clearTimeout(timer);
  }
}

export { RedisDeliveries, type RedisDeliveriesOptions } from "./redis-deliveries.js";
