import type { HttpClient } from './http/client.js';
import type { Method, Purchase } from './http/types.js';
import type { Query } from './http/url.js';
import { DISCOVERY_RESULT_CAP } from '../contract/limits.js';

export interface PageRequest {
  method: Method;
  path: string;
  query?: Query;
  body?: Record<string, unknown>;
  /** The spinner's text for every page. */
  label?: string | undefined;
  /** What each page buys (a known paid route): the store answers and keeps every page as its verb's. */
  purchase?: Purchase | undefined;
}

/** A query can reach at most this many results (Discovery and Similar; api-contract.md §1). */
const LIST_KEYS = ['results', 'accounts', 'handles', 'posts', 'comments', 'data', 'items', 'events'];

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A bare array, or the first array under a known key, at the top or inside `result` (posts and comments). */
export function itemsOfPage(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  const page = objectOf(data);
  if (!page) return undefined;
  for (const key of LIST_KEYS) {
    if (Array.isArray(page[key])) return page[key] as unknown[];
  }
  if (Array.isArray(page.result)) return page.result;
  const result = objectOf(page.result);
  if (result) {
    for (const key of LIST_KEYS) {
      if (Array.isArray(result[key])) return result[key] as unknown[];
    }
  }
  return undefined;
}

function cursorOf(page: Record<string, unknown>): string | undefined {
  const token = page.next_token ?? objectOf(page.result)?.next_token;
  return typeof token === 'string' && token ? token : undefined;
}

/** `paging: {limit, page}` in the body: Discovery and Similar say `total` but carry no cursor. */
export function isNumberPaged(req: PageRequest): boolean {
  if (req.method !== 'POST') return false;
  if (objectOf(req.body?.paging)) return true;
  const p = req.path
    .replace(/^\/?(public\/v1\/)?/, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
  return p === 'discovery' || p === 'discovery/creators/similar';
}

export interface PagingTally {
  pages: number;
  /** Why it stopped: the last page, the page bound, the 10,000-result cap, or a page that repeated the ones before. */
  stop?: 'end' | 'max-pages' | 'cap' | 'repeat' | undefined;
}

export interface PaginateOptions {
  /** At most this many requests (each may be billed); unbounded when undefined. */
  maxPages?: number | undefined;
  /** The number of the first Discovery page on the wire when the body does not say (0 or 1). */
  pageBase?: 0 | 1 | undefined;
  tally?: PagingTally | undefined;
  /** Called with each page's parsed body and its list, before its items are yielded (spend counting). */
  onPage?: ((data: unknown, items: unknown[] | undefined) => void) | undefined;
  /**
   * Awaited before each page after the first: settles once the output has taken what was yielded (lib/output/sink.ts
   * `readerPace`).
   */
  readerTook?: (() => Promise<void>) | undefined;
}

function identity(item: unknown): string | undefined {
  const o = objectOf(item);
  if (!o) return undefined;
  const id = o.user_id ?? objectOf(o.profile)?.username ?? o.id;
  return id === undefined || id === null ? undefined : JSON.stringify(id);
}

/**
 * `api --paginate` over the four paging styles: a `next` URL (events), a `next_token` cursor sent back as
 * `pagination_token`, numbered `paging.page` (to `total` or the cap) and `offset`/`limit`/`total`. Nothing is
 * requested twice; a numbered page of creators already seen (pages counted from the other base) ends the run.
 */
export async function* paginate(
  http: HttpClient,
  first: PageRequest,
  options: PaginateOptions = {},
): AsyncGenerator<unknown> {
  const tally = options.tally ?? { pages: 0 };
  const maxPages = options.maxPages ?? Infinity;
  const numbered = isNumberPaged(first);
  const firstPaging = objectOf(first.body?.paging) ?? {};
  const startPage = typeof firstPaging.page === 'number' ? firstPaging.page : (options.pageBase ?? 0);
  let pageNumber = startPage;
  const seenItems = new Set<string>();
  let req: PageRequest & { absoluteUrl?: string } = first;
  const seen = new Set<string>();
  for (;;) {
    if (tally.pages >= maxPages) {
      tally.stop = 'max-pages';
      return;
    }
    // The next page waits until the output has taken the last one: a reader that is blocked or gone is bought nothing
    // more.
    if (tally.pages > 0) await options.readerTook?.();
    const res = await http.request<unknown>({
      method: req.method,
      path: req.path,
      query: req.query,
      body: req.body,
      label: first.label,
      purchase: req.purchase,
      ...(req.absoluteUrl ? { absoluteUrl: req.absoluteUrl } : {}),
    });
    tally.pages++;
    const data = res.data;
    const items = itemsOfPage(data);
    options.onPage?.(data, items);
    tally.stop = 'end';
    if (!items) {
      yield data;
      return;
    }
    let fresh = items.length === 0;
    if (numbered) {
      for (const item of items) {
        const id = identity(item);
        if (id === undefined || !seenItems.has(id)) fresh = true;
        if (id !== undefined) seenItems.add(id);
      }
      if (!fresh) {
        tally.stop = 'repeat';
        return;
      }
    }
    yield* items;
    const page = objectOf(data);
    if (items.length === 0 || !page) return;
    const token = cursorOf(page);
    const key = JSON.stringify([page.next, token, page.offset]);
    if (!numbered && seen.has(key)) return;
    seen.add(key);
    if (typeof page.next === 'string' && page.next) {
      req = { method: 'GET', path: req.path, absoluteUrl: new URL(page.next, res.url).href };
    } else if (token) {
      req = { ...first, body: { ...(first.body ?? {}), pagination_token: token } };
    } else if (numbered) {
      const limit =
        typeof firstPaging.limit === 'number' && firstPaging.limit > 0
          ? firstPaging.limit
          : typeof page.limit === 'number' && page.limit > 0
            ? page.limit
            : items.length;
      // A short page is the last one; so is the page that reaches the total or the cap.
      if (items.length < limit) return;
      const reached = (pageNumber - (options.pageBase ?? 0) + 1) * limit;
      if (typeof page.total === 'number' && reached >= page.total) return;
      if (reached >= DISCOVERY_RESULT_CAP) {
        tally.stop = 'cap';
        return;
      }
      pageNumber++;
      req = { ...first, body: { ...(first.body ?? {}), paging: { ...firstPaging, limit, page: pageNumber } } };
    } else if (typeof page.total === 'number' && typeof page.offset === 'number') {
      const limit = typeof page.limit === 'number' && page.limit > 0 ? page.limit : items.length;
      const offset = page.offset + limit;
      if (offset >= page.total) return;
      req = { ...first, query: { ...(first.query ?? {}), offset, limit } };
    } else {
      return;
    }
  }
}
