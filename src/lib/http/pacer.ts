/**
 * Client-side pacing: requests leave at least `60 s / limit` apart (with a 2 % margin), so one
 * process never trips the account's per-minute limit, and bulk work still runs close to it.
 * Even spacing rather than a sliding window: a window allows a burst of `limit` requests that
 * the server, counting a few milliseconds differently, may answer with 429.
 */
export class Pacer {
  private nextAt = 0;
  private readonly intervalMs: number;

  constructor(
    perMinute: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ) {
    this.intervalMs = perMinute > 0 ? (60_000 / perMinute) * 1.02 : 0;
  }

  /** Waits for this caller's slot. Slots are handed out in call order. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.nextAt);
    this.nextAt = slot + this.intervalMs;
    if (slot > now) await this.sleep(slot - now, signal);
  }

  /** Pushes every later slot back, e.g. after a 429 so all concurrent workers back off together. */
  delay(ms: number): void {
    this.nextAt = Math.max(this.nextAt, this.now() + ms);
  }
}
