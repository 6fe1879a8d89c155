import { StorageError } from "../storage/storage-error.js";
import type { Delivery } from "./delivery-store.js";

// What both intakes share (delivery-queues.ts, in the database; redis-deliveries.ts, in Redis), in a file of its own
// so that neither imports the other.

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
