/**
 * Unhandled events, oldest first, a page at a time, whichever order the server lists them in. Events are
 * addressed by position in id order (0 = oldest), which arriving events never move; listed newest first,
 * pages shift down, so a position's page is found again from the latest `count`. The start is a binary
 * search over pages (one request when it is on the newest page, a cron run's usual case).
 */
import { ApiError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { getEventsPage, type EventFilters, type EventPage, type ListeningRecord } from '../api/listening.js';

export interface ReadOptions {
  filters: EventFilters;
  pageSize: number;
  /** Every matching event at or below this id was handled; undefined: a first run. */
  after: number | undefined;
  backlog: number;
  /** Told the newest event id the server has under the filters (undefined: none), before anything is read on. */
  onNewest?(newest: number | undefined): void;
  signal?: AbortSignal | undefined;
}

/** Events read in id order: every matching event at or below `through` has now been read (or was handled). */
export interface EventChunk {
  events: ListeningRecord[];
  through: number;
}

export function eventId(event: ListeningRecord): number {
  const id = typeof event.id === 'number' ? event.id : Number(event.id);
  if (!Number.isSafeInteger(id)) {
    throw new ApiError(
      `The server sent an event without a numeric id (${JSON.stringify(event.id)}); it cannot be tracked.`,
      {
        code: 'malformed_response',
      },
    );
  }
  return id;
}

interface Span {
  from: number;
  events: ListeningRecord[];
  ids: number[];
}

/** How many times a page is asked for again when events arriving meanwhile moved it. */
const MOVED_TRIES = 5;
/** How many times the read starts over from the last id read when the positions do not add up. */
const RESEARCH_TRIES = 3;

/** A first run's first chunk may be empty: its `through` is where the cursor starts. */
export async function* newEvents(http: HttpClient, opts: ReadOptions): AsyncGenerator<EventChunk> {
  const get = (page: number): Promise<EventPage> =>
    getEventsPage(http, { page, pageSize: opts.pageSize, filters: opts.filters });
  const first = await get(1);
  const firstIds = first.results.map(eventId);

  if (!first.next) {
    const sorted = first.results.map((e, k) => ({ e, id: firstIds[k] as number })).sort((a, b) => a.id - b.id);
    const newest = sorted.length > 0 ? (sorted[sorted.length - 1] as { id: number }).id : undefined;
    opts.onNewest?.(newest);
    let fresh = opts.after === undefined ? sorted : sorted.filter((x) => x.id > (opts.after as number));
    if (opts.after === undefined) {
      fresh = opts.backlog >= fresh.length ? fresh : fresh.slice(fresh.length - opts.backlog);
      const start = fresh[0] ? fresh[0].id - 1 : (newest ?? 0);
      yield { events: [], through: start };
    }
    if (fresh.length > 0)
      yield { events: fresh.map((x) => x.e), through: (fresh[fresh.length - 1] as { id: number }).id };
    return;
  }

  if (first.count === undefined) {
    throw new ApiError('The events list has more than one page but no count; it cannot be read in order.', {
      code: 'malformed_response',
    });
  }
  let count = first.count;
  const size = Math.max(1, first.results.length);
  let desc = firstIds.length >= 2 ? (firstIds[0] as number) > (firstIds[firstIds.length - 1] as number) : undefined;
  if (desc === undefined) {
    const second = await get(2);
    const next = second.results[0];
    desc = next !== undefined && firstIds[0] !== undefined ? (firstIds[0] as number) > eventId(next) : true;
  }

  const spanOf = (page: EventPage, pageNo: number): Span => {
    const c = page.count ?? count;
    count = c;
    const at = page.results.map((e, k) => ({
      e,
      pos: desc ? c - 1 - ((pageNo - 1) * size + k) : (pageNo - 1) * size + k,
    }));
    at.sort((a, b) => a.pos - b.pos);
    return { from: at[0]?.pos ?? 0, events: at.map((x) => x.e), ids: at.map((x) => eventId(x.e)) };
  };
  const recent: Span[] = [spanOf(first, 1)];
  const remember = (s: Span): Span => {
    recent.push(s);
    if (recent.length > 4) recent.shift();
    return s;
  };
  const holds = (s: Span, pos: number): boolean => pos >= s.from && pos < s.from + s.events.length;

  const spanAt = async (pos: number): Promise<Span> => {
    const known = recent.find((s) => holds(s, pos));
    if (known) return known;
    for (let tries = 0; tries < MOVED_TRIES; tries++) {
      const index = desc ? count - 1 - pos : pos;
      const pageNo = Math.floor(Math.max(0, index) / size) + 1;
      let page: EventPage;
      try {
        page = await get(pageNo);
      } catch (err) {
        // Past the end (the list shrank): the count of page 1 says where it ends now.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        count = (await get(1)).count ?? count;
        continue;
      }
      // Kept even when arrivals moved `pos` off it: its positions stay right, and the read reaches them next.
      const span = remember(spanOf(page, pageNo));
      if (holds(span, pos) || span.events.length === 0 || pos >= count) return span;
    }
    throw new ApiError(
      'The events list kept moving while it was read (events arriving faster than pages); try again.',
      { code: 'list_moving' },
    );
  };

  const findStart = async (after: number): Promise<number> => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const span = await spanAt(Math.floor((lo + hi) / 2));
      if (span.events.length === 0) break;
      const k = span.ids.findIndex((id) => id > after);
      if (k === -1) lo = span.from + span.events.length;
      else if (k > 0) return span.from + k;
      else hi = span.from;
      hi = Math.min(Math.max(hi, lo), count);
    }
    return lo;
  };

  // The page holding the newest events: it names the newest id, and a cron run's new events are on it.
  const top = desc ? (recent[0] as Span) : await spanAt(count - 1);
  const newest = top.ids.length > 0 ? Math.max(...top.ids) : undefined;
  opts.onNewest?.(newest);

  let pos: number;
  let lastId: number;
  if (opts.after === undefined) {
    pos = Math.max(0, count - Math.min(opts.backlog, count));
    if (pos >= count) {
      yield { events: [], through: newest ?? 0 };
      return;
    }
    const span = await spanAt(pos);
    lastId = (span.ids[pos - span.from] ?? 1) - 1;
    yield { events: [], through: lastId };
  } else {
    lastId = opts.after;
    const k = top.ids.findIndex((id) => id > lastId);
    if (k === -1) return; // nothing new: the newest page holds nothing above the watermark
    pos = k > 0 || top.from === 0 ? top.from + k : await findStart(lastId);
  }

  for (let researched = 0; pos < count && !opts.signal?.aborted; ) {
    const span = await spanAt(pos);
    const skip = pos - span.from;
    if (skip < 0 || skip >= span.events.length) return;
    if ((span.ids[skip] as number) <= lastId) {
      // The positions do not add up (events removed?): find the first id above the last one read again.
      if (++researched > RESEARCH_TRIES)
        throw new ApiError('The events list changed order while it was read; try again.', { code: 'list_moving' });
      pos = await findStart(lastId);
      recent.length = 0;
      continue;
    }
    const events = span.events.slice(skip);
    lastId = span.ids[span.ids.length - 1] as number;
    pos = span.from + span.events.length;
    yield { events, through: lastId };
  }
}
