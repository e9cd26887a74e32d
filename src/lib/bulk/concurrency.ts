import { CONCURRENCY_CAP } from '../options.js';

/** Before anything is known: a few at once, like the pacer's burst. */
export const INITIAL_CONCURRENCY = 4;

export interface Load {
  perSecond: number;
  latencyMs: number | undefined;
  oldestInFlightMs: number;
}

/**
 * Rows in flight to use the account's whole rate at the service's latency (Little's law: rate x latency, +15 %
 * and one more for the spread; more would only queue at the pacer). Before the first answers the oldest
 * request's wait stands in, so a slow service is noticed early. The cap covers 10 s answers at 300/min.
 */
export function concurrencyFor(load: Load, cap = CONCURRENCY_CAP): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  if (load.latencyMs === undefined && load.oldestInFlightMs === 0) return Math.min(cap, INITIAL_CONCURRENCY);
  if (!Number.isFinite(load.perSecond)) return cap;
  const wanted = Math.ceil(load.perSecond * (latency / 1000) * 1.15) + 1;
  // Never below the start: a quick service still gets its burst.
  return Math.max(1, Math.min(cap, Math.max(wanted, load.latencyMs === undefined ? INITIAL_CONCURRENCY : 1)));
}

export const CONCURRENT_PAGES_MIN_LATENCY_MS = 300;

/** A quick service is paged one at a time, so a page that fails leaves no later page bought. */
export function pagesInFlightFor(load: Load, cap = CONCURRENCY_CAP): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  if (!Number.isFinite(load.perSecond) || latency < CONCURRENT_PAGES_MIN_LATENCY_MS) return 1;
  return Math.max(1, Math.min(cap, Math.ceil(load.perSecond * (latency / 1000) * 1.15)));
}
