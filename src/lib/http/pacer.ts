/**
 * Client-side pacing, so one process never trips the account's per-minute limit and bulk work still
 * runs close to it. A small burst leaves at once (a command that makes two or three requests — a
 * check then a search, a link then a download — does not wait between them); after it, requests leave
 * evenly spaced. The steady rate is lowered by the burst (and a 2 % margin), so any 60-second window
 * holds at most `burst + (limit - burst)` requests: a sliding-window limiter never answers 429.
 * Not a plain sliding window of `limit`: that allows a burst of the whole limit, which a server
 * counting a few milliseconds differently may refuse.
 */
export class Pacer {
  /** Theoretical arrival time of the next request (GCRA): it may leave `tolerance` ms before it. */
  private tat = Number.NEGATIVE_INFINITY;
  private readonly intervalMs: number;
  private readonly toleranceMs: number;

  constructor(
    perMinute: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ) {
    // 5 at 300/min; 1 (no burst) at 10/min or less.
    const burst = perMinute > 0 ? Math.max(1, Math.min(5, Math.floor(perMinute / 10))) : 1;
    this.intervalMs = perMinute > 0 ? (60_000 / Math.max(1, perMinute - (burst - 1))) * 1.02 : 0;
    this.toleranceMs = (burst - 1) * this.intervalMs;
  }

  /** Waits for this caller's slot. Slots are handed out in call order. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const base = Math.max(this.tat, now);
    const slot = Math.max(now, base - this.toleranceMs);
    this.tat = base + this.intervalMs;
    // Under a millisecond is rounding (the burst's slots are sums of fractional intervals), not a wait.
    if (slot - now >= 1) await this.sleep(slot - now, signal);
  }

  /** Pushes every later slot back, with no burst after it, e.g. after a 429 so all concurrent workers back off together. */
  delay(ms: number): void {
    this.tat = Math.max(this.tat, this.now() + ms + this.toleranceMs);
  }
}
