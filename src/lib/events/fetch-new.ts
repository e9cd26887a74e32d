/**
 * Finding the events not seen yet, whatever order the server lists them in. The first page says
 * which way the list runs (ids falling: newest first; rising: oldest first). Newest first: walk
 * `next` until a page reaches events already handled. Oldest first: jump to the last page (from
 * `count` and the page size the server really applied), read forward to the end, then walk
 * `previous` back until handled events show up. Either way only the pages holding new events are
 * read, duplicates from pages shifting under us are dropped, and the result is sorted by occurrence.
 */
import { ApiError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { getEventsPage, type EventFilters, type EventPage, type ListeningRecord } from '../api/listening.js';
import type { Cursor } from './cursor.js';

export interface FetchOptions {
  filters: EventFilters;
  /** Page size asked for; the server may apply a smaller one. */
  pageSize: number;
  /** Without a cursor: how many of the latest events to start with (Infinity for all). */
  backlog: number;
}

/** A numeric event id; events without one cannot be tracked by a cursor. */
export function eventId(event: ListeningRecord): number {
  const id = typeof event.id === 'number' ? event.id : Number(event.id);
  if (!Number.isSafeInteger(id)) {
    throw new ApiError(`The server sent an event without a numeric id (${JSON.stringify(event.id)}); it cannot be tracked.`, {
      code: 'malformed_response',
    });
  }
  return id;
}

/** Occurrence time in ms, falling back to `created_at`, for ordering. */
function occurred(event: ListeningRecord): number {
  for (const key of ['date_occurance', 'date_occurrence', 'created_at']) {
    const t = typeof event[key] === 'string' ? Date.parse(event[key] as string) : NaN;
    if (Number.isFinite(t)) return t;
  }
  return Number.POSITIVE_INFINITY;
}

/** Sorts events by occurrence, then id: the order `events tail` prints them in. */
export function byOccurrence(events: ListeningRecord[]): ListeningRecord[] {
  return [...events].sort((a, b) => occurred(a) - occurred(b) || eventId(a) - eventId(b));
}

/** The new events, oldest occurrence first. */
export async function fetchNewEvents(http: HttpClient, cursor: Cursor, opts: FetchOptions): Promise<ListeningRecord[]> {
  const seen = new Map<number, ListeningRecord>();
  const take = (page: EventPage): void => {
    for (const e of page.results) seen.set(eventId(e), e);
  };
  const firstRun = cursor.watermark === undefined;
  // Stop walking once a page reaches handled events (or, on a first run, once the backlog is full).
  const hasOld = (page: EventPage): boolean =>
    firstRun ? seen.size >= opts.backlog : page.results.some((e) => eventId(e) <= (cursor.watermark as number));

  const first = await getEventsPage(http, { page: 1, pageSize: opts.pageSize, filters: opts.filters });
  take(first);
  if (first.next && !(firstRun && opts.backlog === 0)) {
    const ids = first.results.map(eventId);
    const descending = ids.length >= 2 && (ids[0] as number) > (ids[ids.length - 1] as number);
    if (descending) {
      let page = first;
      while (page.next && !hasOld(page)) {
        page = await getEventsPage(http, { url: page.next });
        take(page);
      }
    } else {
      await walkFromEnd(http, first, opts, take, hasOld);
    }
  }
  let fresh = [...seen.entries()].filter(([id]) => cursor.isNew(id));
  if (firstRun) {
    // First run: the latest `backlog` events by id (like tail(1) shows the last lines first). The
    // watermark goes just below them, so older events stay skipped even if this batch is interrupted.
    fresh = fresh.sort((a, b) => b[0] - a[0]).slice(0, opts.backlog === Infinity ? undefined : opts.backlog);
    const ids = fresh.length > 0 ? fresh.map(([id]) => id) : [...seen.keys()];
    cursor.watermark = fresh.length > 0 ? Math.min(...ids) - 1 : ids.length > 0 ? Math.max(...ids) : 0;
  }
  return byOccurrence(fresh.map(([, e]) => e));
}

async function walkFromEnd(
  http: HttpClient,
  first: EventPage,
  opts: FetchOptions,
  take: (p: EventPage) => void,
  hasOld: (p: EventPage) => boolean,
): Promise<void> {
  const applied = first.results.length;
  const lastPage = first.count !== undefined && applied > 0 ? Math.ceil(first.count / applied) : undefined;
  let jumped: EventPage | undefined;
  if (lastPage !== undefined && lastPage > 1) {
    try {
      jumped = await getEventsPage(http, { page: lastPage, pageSize: opts.pageSize, filters: opts.filters });
    } catch (err) {
      // The list shrank between the two requests: fall back to reading it from the start.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  if (!jumped) {
    let page = first;
    while (page.next) {
      page = await getEventsPage(http, { url: page.next });
      take(page);
    }
    return;
  }
  take(jumped);
  // Events added since `count` was read may have opened further pages.
  let forward = jumped;
  while (forward.next) {
    forward = await getEventsPage(http, { url: forward.next });
    take(forward);
  }
  let back = jumped;
  while (back.previous && !hasOld(back)) {
    back = await getEventsPage(http, { url: back.previous });
    take(back);
  }
}
