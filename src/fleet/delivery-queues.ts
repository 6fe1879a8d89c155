import type { Logger } from "pino";
import type { Delivery, DeliveryStore } from "./delivery-store.js";
import {
  cannotStore,
  DEFAULT_MAX_ATTEMPTS,
  DELIVERY_LEASE_MS,
  message,
  RetryLaterError,
  type DeliveryHandler,
  type DeliveryIntake,
  type GiveUp,
} from "./delivery-intake.js";

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
