/**
 * How many rows to work on at once so the account's whole rate is used at whatever latency the
 * service shows. Little's law: requests in flight ~= rate x latency. At 300/min (5 a second) and 2 s per
 * answer that is 10; at 1 ms it is 1. The rate is the pacer's pace in force (lower after a 429); the
 * latency is the client's moving average of answers, and, before the first answers, how long the oldest
 * request in flight has waited (so a slow service is noticed while its first answers are still coming).
 * A little headroom (+15 % and one more) covers the spread; more workers than that would only queue at
 * the pacer. Within [1, cap].
 *
 * The cap is what 10 s an answer at 300/min needs (5/s x 10 s x 1.15 + 1 = 59), rounded up: at 32 the
 * rate fell below the account's once answers took more than about 6.4 s (32 / 5 a second).
 */
export const DEFAULT_CONCURRENCY_CAP = 64;
/** Before anything is known: a few at once, like the pacer's burst. */
export const INITIAL_CONCURRENCY = 4;

export interface Load {
  /** Requests a second the pacer allows now (Infinity when unpaced). */
  perSecond: number;
  /** Observed latency of answered requests, ms; undefined before the first. */
  latencyMs: number | undefined;
  /** Age of the oldest request in flight, ms (0 when none). */
  oldestInFlightMs: number;
}

/** Rows in flight for this load, within [1, cap]. */
export function concurrencyFor(load: Load, cap = DEFAULT_CONCURRENCY_CAP): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  if (load.latencyMs === undefined && load.oldestInFlightMs === 0) return Math.min(cap, INITIAL_CONCURRENCY);
  if (!Number.isFinite(load.perSecond)) return cap;
  const wanted = Math.ceil(load.perSecond * (latency / 1000) * 1.15) + 1;
  // Never below the start: a quick service still gets its burst.
  return Math.max(1, Math.min(cap, Math.max(wanted, load.latencyMs === undefined ? INITIAL_CONCURRENCY : 1)));
}

/** Below this observed latency a paging command fetches page by page (one ahead, as ever). */
export const CONCURRENT_PAGES_MIN_LATENCY_MS = 300;

/**
 * Pages of a paging command in flight at once: rate x latency (+15 %), no extra one. Only once pages
 * take `CONCURRENT_PAGES_MIN_LATENCY_MS` or more: a quick service is paged one at a time (the next page
 * sent while this one is written, as before), so a page that fails leaves no later page bought; a slow
 * one gets the pages it is certain to need in parallel. Within [1, cap].
 */
export function pagesInFlightFor(load: Load, cap = DEFAULT_CONCURRENCY_CAP): number {
  const latency = Math.max(load.latencyMs ?? 0, load.oldestInFlightMs);
  if (!Number.isFinite(load.perSecond) || latency < CONCURRENT_PAGES_MIN_LATENCY_MS) return 1;
  return Math.max(1, Math.min(cap, Math.ceil(load.perSecond * (latency / 1000) * 1.15)));
}
