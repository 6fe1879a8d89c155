/**
 * Opt-in fixed-window quota per client address. The API is open by default; this exists so an
 * operator can put a ceiling on a public instance without a proxy in front.
 */
export class FixedWindowLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns 0 when allowed, else the seconds until the window resets. */
  take(key: string): number {
    const t = this.now();
    if (t - this.windowStart >= this.windowMs) {
      this.windowStart = t;
      this.counts.clear();
    }
    const used = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, used);
    if (used <= this.limit) return 0;
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - t) / 1000));
  }
}
