import type { HttpClient, Method } from './http/client.js';
import type { Query } from './http/url.js';

export interface PageRequest {
  method: Method;
  path: string;
  query?: Query;
  body?: Record<string, unknown>;
}

/** The list inside a page: a bare array, or the first array under a known key. */
export function itemsOfPage(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (!data || typeof data !== 'object') return undefined;
  const page = data as Record<string, unknown>;
  for (const key of ['results', 'accounts', 'handles', 'data', 'items', 'comments', 'events']) {
    if (Array.isArray(page[key])) return page[key] as unknown[];
  }
  return undefined;
}

/**
 * Follows a list endpoint page after page, yielding every item once, for the raw `api --paginate`.
 * Understands the service's three paging styles: a `next` URL (events), a `next_token` cursor sent
 * back as `pagination_token` (comments, posts) and `offset`/`limit`/`total` (exclusion entries).
 * Pages that are not lists are yielded whole.
 */
export async function* paginate(http: HttpClient, first: PageRequest): AsyncGenerator<unknown> {
  let req: PageRequest & { absoluteUrl?: string } = first;
  const seen = new Set<string>();
  for (;;) {
    const res = await http.request<unknown>({
      method: req.method,
      path: req.path,
      query: req.query,
      body: req.body,
      ...(req.absoluteUrl ? { absoluteUrl: req.absoluteUrl } : {}),
    });
    const data = res.data;
    const items = itemsOfPage(data);
    if (!items) {
      yield data;
      return;
    }
    yield* items;
    if (items.length === 0 || !data || typeof data !== 'object' || Array.isArray(data)) return;
    const page = data as Record<string, unknown>;
    const key = JSON.stringify([page.next, page.next_token, page.offset]);
    if (seen.has(key)) return;
    seen.add(key);
    if (typeof page.next === 'string' && page.next) {
      req = { method: 'GET', path: req.path, absoluteUrl: new URL(page.next, res.url).href };
    } else if (typeof page.next_token === 'string' && page.next_token) {
      req = { ...first, body: { ...(first.body ?? {}), pagination_token: page.next_token } };
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
