/**
 * Client-side pacing, so one process never trips the account's per-minute limit and bulk work still
 * runs close to it. A small burst leaves at once (a command that makes two or three requests — a
 * check then a search, a link then a download — does not wait between them); after it, requests leave
 * evenly spaced. The steady rate is lowered by the burst (and a 2 % margin), so any 60-second window
 * holds at most `burst + (limit - burst)` requests: a sliding-window limiter never answers 429.
 * Not a plain sliding window of `limit`: that allows a burst of the whole limit, which a server
 * counting a few milliseconds differently may refuse.
 *
 * A 429 all the same means someone else spends the same account's budget (another process, another
 * machine): `backOff` makes every later request wait the server's time, with no burst after it, and
 * lowers the pace to 80 % of what it was (not below a quarter of the limit); each quiet stretch of
 * `RECOVERY_STEP_MS` gives back a tenth of the limit, until the full pace is back.
 */
export const RECOVERY_STEP_MS = 5_000;

/**
 * The schedule of every process sharing a store (lib/store): the GCRA's arrival time kept in the store,
 * so N processes of one account together stay under its limit, each taking the next free slot.
 */
export interface SharedPace {
  /**
   * Takes the next slot of the shared schedule; resolves to when this caller may send (ms since the
   * epoch), or undefined when no schedule is shared yet (the store is opened by the first purchase).
   */
  take(intervalMs: number, toleranceMs: number, now: number): Promise<number | undefined>;
  /**
   * Pushes every later slot of the shared schedule back to at least `until` (a 429's wait). Never throws;
   * the caller need not wait for it (a server engine settles it in the background).
   */
  delay(until: number): void | Promise<void>;
}

export class Pacer {
  /** Theoretical arrival time of the next request (GCRA): it may leave `tolerance` ms before it. */
  private tat = Number.NEGATIVE_INFINITY;
  private readonly baseIntervalMs: number;
  private readonly toleranceMs: number;
  /** The share of the full pace in force (lowered by a 429, recovered step by step). */
  private share = 1;
  /** When the share last changed (a 429 or a recovery step). */
  private shareSince = 0;
  /** The end of the last 429's wait. */
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** 429s seen by `backOff`. */
  backOffs = 0;
  /**
   * The lowered pace explained, set at the first 429 (retry.ts) and printed when another request follows
   * (then cleared): for a one-off command the retry notice says all there is.
   */
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

  /** Gives back a tenth of the pace per quiet `RECOVERY_STEP_MS` since the last change. */
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

  /** The steady pace in force, in requests a second (Infinity when unpaced): what a full pipeline can get. */
  perSecond(): number {
    if (this.baseIntervalMs === 0) return Number.POSITIVE_INFINITY;
    this.recover(this.now());
    return 1000 / this.intervalMs;
  }

  /** Waits for this caller's slot. Slots are handed out in call order. */
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

  /** Pushes every later slot back, with no burst after it, so all concurrent workers wait together. */
  delay(ms: number): void {
    this.tat = Math.max(this.tat, this.now() + ms + this.toleranceMs);
    this.shared?.delay(this.now() + ms + this.toleranceMs);
  }

  /**
   * After a 429: every later request waits `ms` (the server's time), and the pace drops to 80 % of what
   * it was (at least a quarter of the limit). Several workers answered 429 within the same wait lower
   * it once. Returns true the first time (for the one notice).
   */
  backOff(ms: number): boolean {
    const now = this.now();
    this.recover(now);
    // Requests sent before the wait began may answer 429 during it: one lowering per wait.
    if (now >= this.pausedUntil) this.share = Math.max(0.25, this.share * 0.8);
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.delay(ms);
    this.backOffs++;
    // Recovery counts from the end of the wait.
    this.shareSince = now + ms;
    return this.backOffs === 1;
  }

  /** The pace in force, per minute (for messages). */
  get perMinuteNow(): number {
    return this.perMinute * this.share;
  }
}
