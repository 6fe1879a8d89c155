import { AccessError } from "../core/errors.js";

/** Requests that may wait for a key's slots, per slot; beyond them the key gets 429 rate_limited. */
const WAITING_PER_SLOT = 16;

/**
 * Scoring slots per API key on this instance: one key cannot hold the model's whole concurrency. A
 * request beyond the key's slots waits in a bounded line; beyond the line it is refused (429).
 */
export class KeySlots {
  /** Requests in hand per key on this instance, and those waiting for one of its slots. */
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly maxPerKey: number) {}

  /** Take one of the key's slots, waiting in line for one; throws AccessError (rate_limited) when the line is full. */
  async take(keyId: string): Promise<void> {
    const held = this.inFlight.get(keyId) ?? 0;
    if (held < this.maxPerKey) {
      this.inFlight.set(keyId, held + 1);
      return;
    }
    const line = this.waiting.get(keyId) ?? [];
    if (line.length >= this.maxPerKey * WAITING_PER_SLOT)
      throw new AccessError(
        "rate_limited",
        `This key already has ${this.maxPerKey} requests being scored and ${line.length} waiting; wait for them to finish.`,
        { "retry-after": "1" },
      );
    // The slot is handed over by give: the count stays as it is.
    await new Promise<void>((resolve) => {
      line.push(resolve);
      this.waiting.set(keyId, line);
    });
  }

  /** Hand the slot to the next in line, or free it. */
  give(keyId: string): void {
    const line = this.waiting.get(keyId);
    const next = line?.shift();
    if (line && line.length === 0) this.waiting.delete(keyId);
    if (next) return next();
    const n = (this.inFlight.get(keyId) ?? 1) - 1;
    if (n > 0) this.inFlight.set(keyId, n);
    else this.inFlight.delete(keyId);
  }
}
