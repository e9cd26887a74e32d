/**
 * Social listening endpoints (`/public/v1/social/listening/`). The spec names the routes and the
 * events query but no other bodies, so records are passed through untouched: every field the server
 * sends reaches json/csv output. Reads are free; monitoring is billed per creator per day server-side.
 */
import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { paginate } from '../paging.js';

export type ListeningKind = 'subscription' | 'campaign';
export type ListeningRecord = Record<string, unknown>;

const BASE = 'social/listening';

/** The path of a subscription or campaign route; the id is checked before it goes into the path. */
export function listeningPath(kind: ListeningKind, id?: string, ...rest: string[]): string {
  const what = kind === 'subscription' ? 'subscription id' : 'campaign id';
  return [BASE, kind, ...(id === undefined ? [] : [pathSegment(id, what)]), ...rest].join('/') + '/';
}

/** Yields the records of a listing, following `next` links (or a bare array) to the end. */
export async function* listAll(http: HttpClient, path: string, query?: Record<string, string | number | undefined>): AsyncGenerator<ListeningRecord> {
  for await (const item of paginate(http, { method: 'GET', path, ...(query ? { query } : {}) })) {
    yield asRecord(item);
  }
}

export async function getOne(http: HttpClient, path: string): Promise<ListeningRecord> {
  return asRecord((await http.request({ method: 'GET', path })).data);
}

export async function send(
  http: HttpClient,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<ListeningRecord | null> {
  const res = await http.request({ method, path, ...(body === undefined ? {} : { body }) });
  return res.data === null || res.data === undefined ? null : asRecord(res.data);
}

/** `GET subscription/{id}/details/export/` as an open stream of CSV bytes (never held in memory). */
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
  /** The URL this page came from (to resolve relative links). */
  url: string;
}

/** One page of `GET events/` (1-based `page`), or the page at an absolute `next`/`previous` URL. */
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

/** Reads an events page tolerantly: a bare array is one page without links. */
export function toEventPage(data: unknown, url: string): EventPage {
  if (Array.isArray(data)) return { count: data.length, next: null, previous: null, results: data.map(asRecord), url };
  const page = asRecord(data);
  const results = Array.isArray(page.results) ? page.results.map(asRecord) : [];
  const link = (v: unknown): string | null => (typeof v === 'string' && v ? new URL(v, url).href : null);
  return {
    count: typeof page.count === 'number' ? page.count : Number.isFinite(Number(page.count)) ? Number(page.count) : undefined,
    next: link(page.next),
    previous: link(page.previous),
    results,
    url,
  };
}

/** `GET events/{id}/`: one event with its delivery history. */
export async function getEvent(http: HttpClient, id: string): Promise<ListeningRecord> {
  return getOne(http, `${BASE}/events/${pathSegment(id, 'event id')}/`);
}

function asRecord(value: unknown): ListeningRecord {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as ListeningRecord) : { value };
}
