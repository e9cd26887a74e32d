// The spec names no bodies but the events query, so records pass through untouched: every field the server sends
// reaches json/csv output. Reads are free; monitoring is billed per creator per day server-side.
import { WORST_CASE_MILLI } from '../../contract/prices.js';
import { holdHeapSize } from '../io/heap.js';
import { RecentSet } from '../recent-set.js';
import { formatCredits } from '../words.js';
import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { paginate } from '../paging.js';
import { freePlan, type Plan } from './plan.js';
import { recordOf } from './raw.js';
import { plural } from '../words.js';

export type ListeningKind = 'subscription' | 'campaign';
export type ListeningRecord = Record<string, unknown>;

const BASE = 'social/listening';

export function listeningPath(kind: ListeningKind, id?: string, ...rest: string[]): string {
  const what = kind === 'subscription' ? 'subscription id' : 'campaign id';
  return [BASE, kind, ...(id === undefined ? [] : [pathSegment(id, what)]), ...rest].join('/') + '/';
}

export async function* listAll(
  http: HttpClient,
  path: string,
  query?: Record<string, string | number | undefined>,
  onPage?: (page: { results: unknown[]; count?: number | undefined }) => void,
): AsyncGenerator<ListeningRecord> {
  const pages =
    onPage === undefined
      ? {}
      : {
          onPage: (data: unknown, items: unknown[] | undefined) =>
            onPage({ results: items ?? [], count: countOf(data) }),
        };
  for await (const item of paginate(http, { method: 'GET', path, ...(query ? { query } : {}) }, pages)) {
    yield recordOf(item);
  }
}

function countOf(data: unknown): number | undefined {
  const count = data !== null && typeof data === 'object' ? (data as { count?: unknown }).count : undefined;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

/** `inputCheck`: a read the run makes to price or check what it sends, so a dry run still makes it. */
export async function getOne(
  http: HttpClient,
  path: string,
  o: { inputCheck?: boolean } = {},
): Promise<ListeningRecord> {
  return recordOf((await http.request({ method: 'GET', path, ...(o.inputCheck ? { inputCheck: true } : {}) })).data);
}

/** The same request the money gate was shown. */
export async function send(http: HttpClient, plan: Plan): Promise<ListeningRecord | null> {
  const res = await http.request({
    method: plan.method,
    path: plan.path,
    ...(plan.body === undefined ? {} : { body: plan.body }),
  });
  return res.data === null || res.data === undefined ? null : recordOf(res.data);
}

/** `creators` null when it cannot be known; `days` undefined when open-ended (priced per day). */
export interface Monitoring {
  creators: number | null;
  days?: number | undefined;
  daysNote?: string | undefined;
}

/** From the one price table; open-ended monitoring checks --max-credits against one day's cost. */
export const MONITORING_DAY_MILLI = WORST_CASE_MILLI.monitoringPerCreatorDay;

export function monitoringCost(m: Monitoring): Pick<Plan, 'worstCaseMilli' | 'costBasis'> {
  const perDay = MONITORING_DAY_MILLI;
  const price = formatCredits(perDay);
  if (m.creators === null) {
    return { worstCaseMilli: null, costBasis: `an unknown number of creators x ${price} per day` };
  }
  if (m.days === undefined) {
    return {
      worstCaseMilli: m.creators * perDay,
      costBasis: `${plural(m.creators, 'creator')} x ${price} per day, open-ended (one day checked)`,
    };
  }
  return {
    worstCaseMilli: m.creators * m.days * perDay,
    costBasis: `${plural(m.creators, 'creator')} x ${plural(m.days, 'day')} x ${price}${m.daysNote ? ` (${m.daysNote})` : ''}`,
  };
}

export function creatorsIn(body: Record<string, unknown>): number {
  return Array.isArray(body.creators) ? body.creators.length : 0;
}

export function createPlan(kind: ListeningKind, body: Record<string, unknown>, monitoring: Monitoring): Plan {
  return { method: 'POST', path: listeningPath(kind), body, ...monitoringCost(monitoring) };
}

/** Free, unless it (re)starts or extends monitoring, which is priced like creating it. */
export function updatePlan(
  kind: ListeningKind,
  id: string,
  body: Record<string, unknown>,
  monitoring?: Monitoring,
): Plan {
  const path = listeningPath(kind, id);
  return monitoring
    ? { method: 'PATCH', path, body, ...monitoringCost(monitoring) }
    : freePlan('PATCH', path, { body });
}

export function addCreatorsPlan(
  kind: ListeningKind,
  id: string,
  body: Record<string, unknown>,
  monitoring: Monitoring,
): Plan {
  return { method: 'POST', path: listeningPath(kind, id, 'creators'), body, ...monitoringCost(monitoring) };
}

/** Free: billed days are not refunded. */
export function removeCreatorsPlan(kind: ListeningKind, id: string, body: Record<string, unknown>): Plan {
  return freePlan('DELETE', listeningPath(kind, id, 'creators'), { body });
}

export function deletePlan(kind: ListeningKind, id: string): Plan {
  return freePlan('DELETE', listeningPath(kind, id));
}

export async function exportDetails(http: HttpClient, id: string): Promise<NodeJS.ReadableStream> {
  const res = await http.request<NodeJS.ReadableStream>({
    method: 'GET',
    path: listeningPath('subscription', id, 'details', 'export'),
    responseType: 'stream',
    headers: { accept: 'text/csv, */*' },
    timeoutMs: 120_000,
  });
  return res.data;
}

export async function getUsage(http: HttpClient): Promise<ListeningRecord> {
  return getOne(http, `${BASE}/usage/`);
}

/** The largest `page_size` the events route accepts (fewest requests). */
export interface EventFilters {
  subscription_id?: string | undefined;
  event_type?: string | undefined;
  creator?: string | undefined;
}

export interface EventPage {
  count: number | undefined;
  next: string | null;
  previous: string | null;
  results: ListeningRecord[];
  url: string;
}

export async function getEventsPage(
  http: HttpClient,
  where: { page?: number | undefined; pageSize?: number | undefined; filters?: EventFilters; url?: string },
): Promise<EventPage> {
  const res = where.url
    ? await http.request<unknown>({ method: 'GET', path: `${BASE}/events/`, absoluteUrl: where.url })
    : await http.request<unknown>({
        method: 'GET',
        path: `${BASE}/events/`,
        query: { ...where.filters, page: where.page, page_size: where.pageSize },
      });
  return toEventPage(res.data, res.url);
}

/**
 * The ids last seen: a repeat is an event that arrivals pushed across a page boundary while paging, so it
 * comes back within the next pages read.
 */
export class RecentIds extends RecentSet<string> {
  constructor(limit = RECENT_IDS) {
    super(limit);
  }
}

/** Ids kept to drop repeats: 100 pages of 100, far more than arrivals shift while a run pages. */
export const RECENT_IDS = 10_000;

/** An event id is yielded once per run: events arriving while paging shift the pages, so one page's last event
 * comes back at the top of the next (remembered over the last `RECENT_IDS`). A server repeating a `next` link does not
 * loop. */
export async function* listEvents(
  http: HttpClient,
  first: { page: number; pageSize?: number | undefined; filters: EventFilters },
  all: boolean,
  last: (page: Pick<EventPage, 'count' | 'next'>) => void,
  window: () => number = () => 1,
  onPage: (page: EventPage) => void = () => {},
): AsyncGenerator<ListeningRecord> {
  // Every page of any number: memory must not grow with them.
  if (all) holdHeapSize();
  const ids = new RecentIds();
  function* unseen(page: EventPage): Generator<ListeningRecord> {
    for (const event of page.results) {
      const id = event.id === undefined || event.id === null ? undefined : String(event.id);
      if (id !== undefined && !ids.add(id)) continue;
      yield event;
    }
  }
  let current = await getEventsPage(http, first);
  onPage(current);
  yield* unseen(current);
  const seen = new Set<string>([current.url]);
  // With page-number links and a count the pages left are known: slow pages are fetched several at once, in order.
  const known = all && window() > 1 ? pagesLeft(current) : [];
  const queue: Promise<EventPage>[] = [];
  let sent = 0;
  while (sent < known.length || queue.length > 0) {
    while (sent < known.length && queue.length < Math.max(1, Math.floor(window()))) {
      const url = known[sent++] as string;
      seen.add(url);
      const page = getEventsPage(http, { url });
      page.catch(() => {});
      queue.push(page);
    }
    current = await (queue.shift() as Promise<EventPage>);
    onPage(current);
    yield* unseen(current);
  }
  while (all && current.next && !seen.has(current.next)) {
    seen.add(current.next);
    current = await getEventsPage(http, { url: current.next });
    onPage(current);
    yield* unseen(current);
  }
  last({ count: current.count, next: current.next });
}

function pagesLeft(page: EventPage): string[] {
  if (!page.next || page.count === undefined || page.results.length === 0) return [];
  const next = new URL(page.next);
  const n = Number(next.searchParams.get('page'));
  if (!Number.isInteger(n) || n < 2) return [];
  const total = Math.ceil(page.count / page.results.length);
  const urls: string[] = [];
  for (let p = n; p <= total; p++) {
    next.searchParams.set('page', String(p));
    urls.push(next.href);
  }
  return urls;
}

export function toEventPage(data: unknown, url: string): EventPage {
  if (Array.isArray(data)) return { count: data.length, next: null, previous: null, results: data.map(recordOf), url };
  const page = recordOf(data);
  const results = Array.isArray(page.results) ? page.results.map(recordOf) : [];
  const link = (v: unknown): string | null => (typeof v === 'string' && v ? new URL(v, url).href : null);
  return {
    count:
      typeof page.count === 'number'
        ? page.count
        : Number.isFinite(Number(page.count))
          ? Number(page.count)
          : undefined,
    next: link(page.next),
    previous: link(page.previous),
    results,
    url,
  };
}

export async function getEvent(http: HttpClient, id: string): Promise<ListeningRecord> {
  return getOne(http, `${BASE}/events/${pathSegment(id, 'event id')}/`);
}
