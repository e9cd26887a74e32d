/**
 * The one retry policy: every back-off in lib takes its waits from here (exponential from a base, capped, with
 * jitter where concurrent clients would otherwise retry in step), stops at its attempts or its deadline, waits a
 * server's own `Retry-After` when it gives one (not beyond the policy's limit), and stops waiting at Ctrl-C.
 * Whether a failure may be tried again is the caller's `retryable`: for a request that buys, only the HTTP core
 * knows whether it may have been charged (lib/http/attempt.ts).
 */
import { InterruptedError } from './errors.js';

export interface RetryPolicy {
  /** The first wait. */
  baseMs: number;
  /** Each wait this many times the one before (1: a steady poll). */
  factor: number;
  capMs: number;
  /** The share of each wait left to chance: 0.5 waits between half of it and all of it. */
  jitter: number;
  /** Attempts in all, the first included (Infinity: until the deadline, or the caller stops). */
  attempts: number;
  /** After this long no new attempt starts (Infinity: none); what is counted is `mayRetry`'s caller's. */
  deadlineMs: number;
  /** A server's wait longer than this is not waited out (Infinity: any). */
  maxServerWaitMs: number;
}

const POLICY: RetryPolicy = {
  baseMs: 1_000,
  factor: 2,
  capMs: 30_000,
  jitter: 0,
  attempts: Infinity,
  deadlineMs: Infinity,
  maxServerWaitMs: Infinity,
};

/** A policy: the defaults (exponential from 1 s, capped at 30 s, no jitter, no limit) with `p` over them. */
export function retryPolicy(p: Partial<RetryPolicy>): RetryPolicy {
  return { ...POLICY, ...p };
}

/**
 * Each back-off of lib, in one place. HTTP: jitter, as every worker of a run (and other runs on the account) may
 * fail together; a server's wait over 60 s is the user's to decide (exit 6). The others are one caller each.
 */
export const POLICIES = {
  /** The API's requests; `attempts` is --retries + 1, the deadline twice --timeout (both set per request). */
  http: retryPolicy({ baseMs: 500, capMs: 8_000, jitter: 0.5, maxServerWaitMs: 60_000 }),
  /** `events tail --forward-to`: "up to 5 attempts" (README, --help). */
  forward: retryPolicy({ baseMs: 1_000, capMs: 30_000, attempts: 5 }),
  /** `events tail` between failed polls: from the poll interval (at least 2 s) to 5 minutes, for as long as it runs. */
  tail: retryPolicy({ baseMs: 2_000, capMs: 300_000 }),
  /** A team store's lost connection: each try finds out (and drops) one dead pooled connection. */
  storeReconnect: retryPolicy({ baseMs: 100, factor: 3, capMs: 600, attempts: 4 }),
  /**
   * Another process buying the same record: looked at again every 200 ms up to the claim wait (2 minutes by default).
   */
  claimWait: retryPolicy({ baseMs: 200, factor: 1, capMs: 200, deadlineMs: 120_000 }),
} as const;

/** The wait before attempt `attempt + 1` (`attempt` counts from 1). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(policy.capMs, policy.baseMs * policy.factor ** (attempt - 1));
  return policy.jitter === 0 ? full : full * (1 - policy.jitter + random() * policy.jitter);
}

/** The server's wait when it gave one, else the back-off; `tooLong` when the server asks more than the policy waits. */
export function nextWait(
  policy: RetryPolicy,
  attempt: number,
  serverWaitMs: number | undefined,
  random: () => number = Math.random,
): { waitMs: number; tooLong: boolean } {
  const waitMs = serverWaitMs ?? backoffMs(policy, attempt, random);
  return { waitMs, tooLong: serverWaitMs !== undefined && waitMs > policy.maxServerWaitMs };
}

/**
 * Whether attempt `attempt + 1` may start after `elapsedMs` counted against the deadline (the HTTP core counts its
 * attempts' time only, not the waits; `withRetries` counts from the first attempt).
 */
export function mayRetry(policy: RetryPolicy, attempt: number, elapsedMs: number): boolean {
  return attempt < policy.attempts && elapsedMs < policy.deadlineMs;
}

export interface RetryClock {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  now?(): number;
  random?(): number;
  signal?: AbortSignal | undefined;
}

/** A timer Ctrl-C cuts short, for callers that are handed none. */
export const realClock: RetryClock = {
  sleep: async (ms, signal) => {
    const { setTimeout: wait } = await import('node:timers/promises');
    await wait(ms, undefined, signal ? { signal } : {});
  },
  now: () => Date.now(),
};

/**
 * Waits `ms`; never throws, resolving early when the signal fires: the caller then asks `signal.aborted` (it may save
 * first).
 */
export async function pause(clock: RetryClock, ms: number): Promise<void> {
  try {
    await clock.sleep(ms, clock.signal);
  } catch {
    /* aborted: the caller checks */
  }
}

export interface RetryHooks {
  /** May this failure be tried again (attempts and deadline aside)? */
  retryable(err: unknown): boolean;
  /** A server's wait for this failure, in ms. */
  serverWaitMs?(err: unknown): number | undefined;
  /** Said before each wait. */
  onRetry?(err: unknown, attempt: number, waitMs: number): void;
}

/**
 * Runs `op` until it succeeds, a failure is not retryable, or the policy's attempts or deadline are used up: then
 * the last failure is thrown. Ctrl-C, before an attempt or during a wait, is an InterruptedError.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  clock: RetryClock,
  hooks: RetryHooks,
  op: (attempt: number) => Promise<T>,
): Promise<T> {
  const now = clock.now ?? Date.now;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    if (clock.signal?.aborted) throw new InterruptedError();
    try {
      return await op(attempt);
    } catch (err) {
      if (clock.signal?.aborted) throw new InterruptedError();
      if (!hooks.retryable(err) || !mayRetry(policy, attempt, now() - started)) throw err;
      const { waitMs, tooLong } = nextWait(policy, attempt, hooks.serverWaitMs?.(err), clock.random);
      if (tooLong) throw err;
      hooks.onRetry?.(err, attempt, waitMs);
      await pause(clock, waitMs);
    }
  }
}
