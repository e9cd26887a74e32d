/**
 * The raw request of `creators api <path>`: any method and path, with the same auth, retries,
 * money gate and output as every other command. Its plan prices known routes from the shared table
 * (lib/cost.ts `estimateRouteCost`); unknown writes have an unknown worst case.
 */
import { estimateRouteCost, formatCredits } from '../cost.js';
import type { HttpClient, HttpResponse, Method } from '../http/client.js';
import { buildUrl, type Query } from '../http/url.js';
import { isNumberPaged, itemsOfPage, PAGING_RESULT_CAP } from '../paging.js';
import type { Plan } from './plan.js';
import { plural } from '../output/humanize.js';

export interface RawRequest {
  method: Method;
  /** API path as the user gave it; it may carry its own query (`discovery?return_filter_values=true`). */
  path: string;
  query?: Query | undefined;
  body?: Record<string, unknown> | undefined;
}

/** Any origin: only the path and query of the URL are read. */
const ANY_ORIGIN = new URL('http://api.invalid');

/**
 * The raw request as a plan. The price reads the whole query, the path's own as well as `-f` pairs
 * of a GET: Discovery with `?return_filter_values=true` is a POST whose price depends on its query.
 */
export function rawRequestPlan(req: RawRequest): Plan {
  const url = buildUrl(ANY_ORIGIN, req.path, req.query);
  const cost = estimateRouteCost(req.method, url.pathname, req.body, Object.fromEntries(url.searchParams));
  return { method: req.method, path: req.path, query: req.query, body: req.body, worstCaseMilli: cost.milli, costBasis: cost.basis };
}

/** The plan of `api --paginate` and how its pages are bounded and counted. */
export interface PaginatePlan {
  plan: Plan;
  /** At most this many requests (undefined: no bound, which only a free route may have). */
  maxPages: number | undefined;
  /** The worst case of one page (null: unknown). */
  pageMilli: number | null;
  /** Numbered (Discovery) pages are charged per creator returned: the price of one. */
  perItemMilli: number | undefined;
}

/**
 * The raw request followed page after page. Every page costs what the first does, so the worst case
 * is the pages times that: a free route needs no bound; numbered Discovery pages are bounded by the
 * 10,000-result cap; a priced cursor route (posts, comments) has no bound of its own, so `--max-pages`
 * or else a `--max-credits` budget bounds it (as many pages as the budget pays for at the worst
 * case), and with neither its worst case is unknown. `--max-pages` always applies.
 */
export function paginatePlan(req: RawRequest, bound: { maxPages?: number | undefined; budgetMilli?: number | undefined; pageBase?: 0 | 1 | undefined }): PaginatePlan {
  const one = rawRequestPlan(req);
  const pageMilli = one.worstCaseMilli;
  const numbered = isNumberPaged(req);
  let perItemMilli: number | undefined;
  let capPages: number | undefined;
  let limit = 0;
  if (numbered) {
    const paging = (req.body?.paging ?? {}) as Record<string, unknown>;
    limit = typeof paging.limit === 'number' && paging.limit > 0 ? paging.limit : 50;
    const index = typeof paging.page === 'number' ? Math.max(0, paging.page - (bound.pageBase ?? 0)) : 0;
    capPages = Math.max(1, Math.ceil((PAGING_RESULT_CAP - index * limit) / limit));
    if (pageMilli !== null) perItemMilli = pageMilli / limit;
  }
  if (pageMilli === 0) {
    return { plan: { ...one, costBasis: 'free pages' }, maxPages: bound.maxPages, pageMilli, perItemMilli };
  }
  const budgetPages = pageMilli !== null && bound.budgetMilli !== undefined ? Math.max(1, Math.floor(bound.budgetMilli / pageMilli)) : undefined;
  const pages = [bound.maxPages, capPages, budgetPages].filter((n): n is number => n !== undefined).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);
  const unit = numbered ? `${plural(limit, 'creator')} x ${formatCredits(perItemMilli ?? 0)}` : formatCredits(pageMilli ?? 0);
  let costBasis: string | undefined;
  if (pageMilli === null) costBasis = undefined;
  else if (pages === undefined) costBasis = `pages unknown x ${unit}; --max-pages n bounds it`;
  else {
    const paysForNone = bound.budgetMilli !== undefined && pageMilli !== null && bound.budgetMilli < pageMilli;
    const why = pages === bound.maxPages ? '' : pages === capPages ? ' (the 10,000-result cap)' : paysForNone ? ' (--max-credits pays for no whole page)' : ' (as many as --max-credits pays for)';
    costBasis = `${plural(pages, 'page')}${why} x ${unit}`;
  }
  return {
    plan: { ...one, worstCaseMilli: pageMilli === null || pages === undefined ? null : pages * pageMilli, costBasis },
    maxPages: pages,
    pageMilli,
    perItemMilli,
  };
}

/**
 * What one page of `api --paginate` cost: its own `credits_cost` when it says, else its creators at
 * the per-creator price (Discovery says nothing), else the page's worst case.
 */
export function pageSpendMilli(pp: PaginatePlan, data: unknown, items: unknown[] | undefined): number {
  const said = isJsonObject(data) ? Number(data.credits_cost) : NaN;
  if (isJsonObject(data) && data.credits_cost !== undefined && data.credits_cost !== null && Number.isFinite(said)) return Math.round(said * 1000);
  if (pp.perItemMilli !== undefined) return Math.round((items?.length ?? 0) * pp.perItemMilli);
  return pp.pageMilli ?? 0;
}

/**
 * What one answered raw request cost, as `api --paginate` counts a page: its own `credits_cost`, else
 * its creators at the per-creator price (Discovery), else the route's price. Undefined when nothing
 * says (an unpriced route whose answer names no cost).
 */
export function rawSpendMilli(req: RawRequest, data: unknown): number | undefined {
  const pp = paginatePlan(req, {});
  const said = isJsonObject(data) && data.credits_cost !== undefined && data.credits_cost !== null && Number.isFinite(Number(data.credits_cost));
  if (pp.pageMilli === null && !said) return undefined;
  return pageSpendMilli(pp, data, itemsOfPage(data));
}

/** Sends the raw request; the response body is parsed as JSON when it is JSON. */
export function sendRawRequest(http: HttpClient, req: RawRequest): Promise<HttpResponse<unknown>> {
  return http.request<unknown>({ method: req.method, path: req.path, query: req.query, body: req.body, responseType: 'json-or-text' });
}

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** `-f` pairs of a GET as query parameters: nested keys become dot paths, lists repeat the key. */
export function queryFromPairs(pairs: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const walk = (value: unknown, key: string): void => {
    if (Array.isArray(value)) out[key] = value.map(String);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${key}.${k}`);
    else out[key] = value === null ? '' : String(value);
  };
  for (const [k, v] of Object.entries(pairs)) walk(v, k);
  return out;
}

/** A list item as a record: objects as they are, anything else (a handle, a number) as `{ value }`. */
export function recordOf(item: unknown): Record<string, unknown> {
  return isJsonObject(item) ? item : { value: item };
}

/** Every item of a paginated stream as a record. */
export async function* recordsOf(items: AsyncIterable<unknown>): AsyncGenerator<Record<string, unknown>> {
  for await (const item of items) yield recordOf(item);
}

/**
 * A whole response for `printItem`. An object is printed as it is; a bare JSON scalar (rare) is handed
 * over as it always was, and the json printer prints it as JSON (tables show nothing for it).
 */
export function itemOf(data: unknown): Record<string, unknown> {
  return data as Record<string, unknown>;
}
