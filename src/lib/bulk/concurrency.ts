import { CONCURRENCY_CAP } from '../options.js';

/**
 * The cap follows the account's rate: it covers answers of up to `COVERED_LATENCY_MS` (10 s and some spread)
 * at that rate, never below the old fixed 64, never above `MAX_IN_FLIGHT`.
 */
export const COVERED_LATENCY_MS = 12_000;
/**
 * The bound whatever the rate. 1,200/min at 10 s needs about 230 (rate x latency, +15 %); each request in
 * flight is one socket, and 256 stays far under the usual 1,024 open files with room for the store and the
 * files of a run; each holds one input row and at most one answer (a full record is ~2-3 KB), so memory stays
 * a few MB. The service states a per-minute rate and no limit on concurrent requests (spec, Limits).
 */
export const MAX_IN_FLIGHT = 256;
/** Before anything is known: a few at once, like the pacer's burst. */
export const INITIAL_CONCURRENCY = 4;

export interface Load {
  perSecond: number;
  latencyMs: number | undefined;
  oldestInFlightMs: number;
}

/** Past the fixed 64 only for answers this slow: there the requests wait on the service, not on this process. */
export const SLOW_SERVICE_MS = 1_000;

/** Rates past this (6,000/min, 20 times the default plan's) are a local sandbox or bench, not an account. */
export const ACCOUNT_RATE_MAX_PER_SECOND = 100;

/**
 * The most in flight for an account paced at `perSecond` whose answers take `latencyMs`. A quick service never
 * needs more than 64 at a real account's rate (64 at 1 s is 3,800/min). At a local sandbox's huge rate the
 * latency is this process's own (its store commits hold the event loop): more in flight only slows it further,
 * and idle sockets meet the server's keep-alive timeout (measured: 85 of 2,000 rows lost at 1,000,000/min).
 */
export function inFlightCap(perSecond: number, latencyMs: number): number {
  if (!Number.isFinite(perSecond) || perSecond > ACCOUNT_RATE_MAX_PER_SECOND || latencyMs < SLOW_SERVICE_MS)
    return CONCURRENCY_CAP;
  return Math.min(
    MAX_IN_FLIGHT,
    Math.max(CONCURRENCY_CAP, Math.ceil(perSecond * (COVERED_LATENCY_MS / 1000) * 1.15) + 1),
  );
}

/**
 * Rows in flight to use the account's whole rate at the service's latency (Little's law: rate x latency, +15 %
 * and one more for the spread; more would only queue at the pacer). Before the first answers the oldest
 * request's wait stands in, so a slow service is noticed early.
 */
export function concurrencyFor(load: Load, cap?: number): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  // The service is slow by its average answer once there is one: one late answer (a busy moment here) is not it.
  const most = cap ?? inFlightCap(load.perSecond, load.latencyMs ?? load.oldestInFlightMs);
  if (load.latencyMs === undefined && load.oldestInFlightMs === 0) return Math.min(most, INITIAL_CONCURRENCY);
  if (!Number.isFinite(load.perSecond)) return most;
  const wanted = Math.ceil(load.perSecond * (latency / 1000) * 1.15) + 1;
  // Never below the start: a quick service still gets its burst.
  return Math.max(1, Math.min(most, Math.max(wanted, load.latencyMs === undefined ? INITIAL_CONCURRENCY : 1)));
}

export const CONCURRENT_PAGES_MIN_LATENCY_MS = 300;

/** A quick service is paged one at a time, so a page that fails leaves no later page bought. */
export function pagesInFlightFor(load: Load, cap?: number): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  if (!Number.isFinite(load.perSecond) || latency < CONCURRENT_PAGES_MIN_LATENCY_MS) return 1;
  return Math.max(
    1,
    Math.min(
      cap ?? inFlightCap(load.perSecond, load.latencyMs ?? load.oldestInFlightMs),
      Math.ceil(load.perSecond * (latency / 1000) * 1.15),
    ),
  );
}
