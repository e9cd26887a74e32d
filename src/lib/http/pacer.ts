/**
 * GCRA: a small burst leaves at once, then requests leave evenly, the rate lowered by the burst and a 2 % margin: a
 * plain sliding window would allow a burst of the whole limit, which a server counting a few ms differently may refuse.
 * A 429 means someone else spends the account's budget: every request waits the server's time and the pace drops
 * to 80 % (not below a quarter), recovering a tenth of the limit per quiet `RECOVERY_STEP_MS`.
 */
export const RECOVERY_STEP_MS = 5_000;

/** The GCRA's arrival time kept in the store, so the processes of one account together stay under its limit. */
export interface SharedPace {
  /** Resolves to when this caller may send (ms since the epoch), or undefined when no schedule is shared yet. */
  take(intervalMs: number, toleranceMs: number, now: number): Promise<number | undefined>;
  /**
   * Holds every sharer back `waitMs` from now. Never throws; the caller need not wait for it (a server engine settles
   * it in the background).
   */
  delay(waitMs: number): void | Promise<void>;
}

export class Pacer {
  private tat = Number.NEGATIVE_INFINITY;
  private readonly baseIntervalMs: number;
  private readonly toleranceMs: number;
  private share = 1;
  private shareSince = 0;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  backOffs = 0;
  /** Set at the first 429 and printed when another request follows: for a one-off command the retry notice says all. */
  paceNote: string | undefined;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
    private readonly shared?: SharedPace | undefined,
  ) {
    // 5 at 300/min; 1 (no burst) at 10/min or less.
    const burst = perMinute > 0 ? Math.max(1, Math.min(5, Math.floor(perMinute / 10))) : 1;
    this.baseIntervalMs = perMinute > 0 ? (60_000 / Math.max(1, perMinute - (burst - 1))) * 1.02 : 0;
    this.toleranceMs = (burst - 1) * this.baseIntervalMs;
  }

  private recover(now: number): void {
    if (this.share >= 1) return;
    const steps = Math.floor((now - this.shareSince) / RECOVERY_STEP_MS);
    if (steps <= 0) return;
    this.share = Math.min(1, this.share + steps * 0.1);
    this.shareSince += steps * RECOVERY_STEP_MS;
  }

  private get intervalMs(): number {
    return this.baseIntervalMs / this.share;
  }

  perSecond(): number {
    if (this.baseIntervalMs === 0) return Number.POSITIVE_INFINITY;
    this.recover(this.now());
    return 1000 / this.intervalMs;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    this.recover(now);
    const shared = await this.shared?.take(this.intervalMs, this.toleranceMs, now);
    let slot: number;
    if (shared !== undefined) {
      // A 429's wait is this process's too, whatever the shared schedule says.
      slot = Math.max(shared, this.tat - this.toleranceMs);
    } else {
      const base = Math.max(this.tat, now);
      slot = Math.max(now, base - this.toleranceMs);
      this.tat = base + this.intervalMs;
    }
    // Under a millisecond is rounding (the burst's slots are sums of fractional intervals), not a wait.
    if (slot - now >= 1) await this.sleep(slot - now, signal);
  }

  /** With no burst after it, so all concurrent workers wait together. */
  delay(ms: number): void {
    this.tat = Math.max(this.tat, this.now() + ms + this.toleranceMs);
    this.shared?.delay(ms + this.toleranceMs);
  }

  backOff(ms: number): boolean {
    const now = this.now();
    this.recover(now);
    // Requests sent before the wait began may answer 429 during it: one lowering per wait.
    if (now >= this.pausedUntil) this.share = Math.max(0.25, this.share * 0.8);
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.delay(ms);
    this.backOffs++;
    this.shareSince = now + ms;
    return this.backOffs === 1;
  }

  get perMinuteNow(): number {
    return this.perMinute * this.share;
  }
}
