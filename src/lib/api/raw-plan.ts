/**
 * The plan of a raw `creators api` request, priced by the same plan builders the typed verbs use
 * (discoveryPlan, enrichHandlePlan, creatorPostsPlan...), so `creators api <route> --dry-run` and the
 * verb quote the same for the same request. Only the price, its basis and the spinner's text are
 * taken from the typed plan: the request sent is the raw one, as given.
 */
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../../contract/limits.js';
import type { CONTENT_PLATFORMS } from '../../contract/platforms.js';
import { formatCredits } from '../words.js';
import { storedAt } from '../http/types.js';
import { buildUrl, type Query } from '../http/url.js';
import { plural } from '../words.js';
import { isNumberPaged, itemsOfPage } from '../paging.js';
import { creditsPlan } from './account.js';
import { legacyEmailBatchPlan, resumeBatchPlan } from './batch.js';
import { postDetailsPlan } from './content.js';
import { audienceOverlapPlan, connectedSocialsPlan, creatorPostsPlan } from './creators.js';
import { dictionaryPlan } from './dictionary.js';
import { discoveryPlan } from './discovery.js';
import { enrichEmailPlan, enrichHandlePlan } from './enrichment.js';
import { HANDLE_MODES, type HandleMode } from '../../contract/platforms.js';
import { addCreatorsPlan, createPlan, updatePlan, type ListeningKind, type Monitoring } from './listening.js';
import { freePlan, type PageBound, type Plan } from './plan.js';
import { isJsonObject, type RawRequest } from './raw.js';

/** Any origin: only the path and query of the URL are read. */
const ANY_ORIGIN = new URL('http://api.invalid');

/** Writes whose typed plans are free (exclusion lists, API keys, OAuth). */
const FREE_WRITES = /^(discovery\/exclusion-lists|accounts\/tokens|oauth)(\/|$)/;

type ContentPlatform = (typeof CONTENT_PLATFORMS)[number];

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

/**
 * What starting or extending monitoring involves, read from a raw body: its `creators` (or `handles`)
 * and `days`. A PATCH listing no creators may resume or extend ones it does not name: unknown.
 */
function monitoringOf(method: string, body: Record<string, unknown>): Monitoring {
  const listed = Array.isArray(body.creators)
    ? body.creators.length
    : Array.isArray(body.handles)
      ? body.handles.length
      : 0;
  const days = typeof body.days === 'number' && body.days > 0 ? Math.ceil(body.days) : undefined;
  return { creators: method === 'PATCH' && listed === 0 ? null : listed, days };
}

/**
 * The typed plan of a known route, or undefined for a route no verb sends (its price unknown unless it is a read or a
 * delete).
 */
function typedPlan(
  method: string,
  route: string,
  body: Record<string, unknown>,
  query: URLSearchParams,
): Plan | undefined {
  if (method === 'GET' || method === 'HEAD') {
    if (route === 'accounts/credits') return creditsPlan();
    if (route.startsWith('discovery/classifier/')) return dictionaryPlan({ kind: 'languages' });
    return undefined;
  }
  let m: RegExpExecArray | null;
  if (method === 'POST') {
    if (route === 'discovery')
      return discoveryPlan({ kind: 'search', body, returnFilterValues: query.get('return_filter_values') === 'true' });
    if (route === 'discovery/creators/similar') return discoveryPlan({ kind: 'similar', body });
    if (
      (m = /^creators\/enrich\/handle\/([a-z]+)$/.exec(route)) &&
      (HANDLE_MODES as readonly string[]).includes(m[1] as string)
    ) {
      return enrichHandlePlan(text(body.handle), { mode: m[1] as HandleMode, platform: text(body.platform) });
    }
    if (route === 'creators/enrich/email') return enrichEmailPlan(text(body.email), { mode: 'basic' });
    if (route === 'creators/enrich/email/advanced') return enrichEmailPlan(text(body.email), { mode: 'advanced' });
    if (route === 'creators/content/posts')
      return creatorPostsPlan(
        { platform: text(body.platform) as ContentPlatform, handle: text(body.handle) },
        { maxPages: 1 },
      ).plan;
    if (route === 'creators/content/details')
      return postDetailsPlan({
        platform: text(body.platform) as ContentPlatform,
        postId: text(body.post_id),
        kind: 'data',
      });
    if (route === 'creators/socials') return connectedSocialsPlan(text(body.handle), text(body.platform));
    if (route === 'creators/audience/overlap')
      return audienceOverlapPlan(text(body.platform), Array.isArray(body.creators) ? body.creators.map(text) : []);
    if (route === 'creators/enrich/public') return legacyEmailBatchPlan(body);
    if ((m = /^(?:enrichment\/batch|creators\/enrich\/public)\/([^/]+)\/resume$/.exec(route)))
      return resumeBatchPlan(m[1] as string);
  }
  if ((m = /^social\/listening\/(subscription|campaign)(?:\/([^/]+)(\/creators)?)?$/.exec(route))) {
    const kind = m[1] as ListeningKind;
    const id = m[2];
    if (method === 'POST' && id === undefined) return createPlan(kind, body, monitoringOf(method, body));
    if (method === 'POST' && id !== undefined && m[3])
      return addCreatorsPlan(kind, id, body, monitoringOf(method, body));
    if (method === 'PATCH' && id !== undefined && !m[3]) return updatePlan(kind, id, body, monitoringOf(method, body));
  }
  return undefined;
}

/**
 * The raw request as a plan. The price reads the whole query, the path's own as well as `-f` pairs
 * of a GET: Discovery with `?return_filter_values=true` is a POST whose price depends on its query.
 */
export function rawRequestPlan(req: RawRequest): Plan {
  const url = buildUrl(ANY_ORIGIN, req.path, req.query);
  const route = url.pathname.replace(/^\/public\/v1\//, '').replace(/\/$/, '');
  const body = isJsonObject(req.body) ? req.body : {};
  let typed: Plan | undefined;
  try {
    typed = typedPlan(req.method, route, body, url.searchParams);
  } catch {
    // A builder refusing the request (an id it cannot put in a path) leaves its price to the rules below.
    typed = undefined;
  }
  const own = { method: req.method, path: req.path, query: req.query, body: req.body };
  if (typed?.purchase) {
    // A purchase the verb makes is keyed as the verb keys it (route, query, body: lib/store/memory.ts): the same
    // URL, its path and query held apart as the verb holds them, so either one's answer serves the other.
    const held: Plan = {
      ...own,
      path: route,
      query: queryOf(url.searchParams),
      worstCaseMilli: typed.worstCaseMilli,
      costBasis: typed.costBasis,
      label: typed.label,
    };
    return { ...held, purchase: typed.purchase };
  }
  if (typed) return { ...own, worstCaseMilli: typed.worstCaseMilli, costBasis: typed.costBasis, label: typed.label };
  const free = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' || FREE_WRITES.test(route);
  return free ? freePlan(req.method, req.path, { query: req.query, body: req.body }) : { ...own, worstCaseMilli: null };
}

/** A URL's query as a plan holds it (a repeated key a list), or undefined when it has none. */
function queryOf(params: URLSearchParams): Query | undefined {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return Object.keys(query).length === 0 ? undefined : query;
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
 * or else a credit budget bounds it (as many pages as the budget pays for at the worst
 * case), and with neither its worst case is unknown. `--max-pages` always applies.
 */
export function paginatePlan(req: RawRequest, bound: PageBound & { pageBase?: 0 | 1 | undefined }): PaginatePlan {
  const one = rawRequestPlan(req);
  const pageMilli = one.worstCaseMilli;
  const numbered = isNumberPaged(req);
  let perItemMilli: number | undefined;
  let capPages: number | undefined;
  let limit = 0;
  if (numbered) {
    const paging = (req.body?.paging ?? {}) as Record<string, unknown>;
    limit = typeof paging.limit === 'number' && paging.limit > 0 ? paging.limit : DISCOVERY_PAGE_LIMIT.default;
    const index = typeof paging.page === 'number' ? Math.max(0, paging.page - (bound.pageBase ?? 0)) : 0;
    capPages = Math.max(1, Math.ceil((DISCOVERY_RESULT_CAP - index * limit) / limit));
    if (pageMilli !== null) perItemMilli = pageMilli / limit;
  }
  if (pageMilli === 0) {
    return { plan: { ...one, costBasis: 'free pages' }, maxPages: bound.maxPages, pageMilli, perItemMilli };
  }
  const { budget } = bound;
  const budgetPages =
    pageMilli !== null && budget !== undefined ? Math.max(1, Math.floor(budget.milli / pageMilli)) : undefined;
  const pages = [bound.maxPages, capPages, budgetPages]
    .filter((n): n is number => n !== undefined)
    .reduce<number | undefined>((a, b) => (a === undefined ? b : Math.min(a, b)), undefined);
  const unit = numbered
    ? `${plural(limit, 'creator')} x ${formatCredits(perItemMilli ?? 0)}`
    : formatCredits(pageMilli ?? 0);
  let costBasis: string | undefined;
  if (pageMilli === null) costBasis = undefined;
  else if (pages === undefined) costBasis = `pages unknown x ${unit}; --max-pages n bounds it`;
  else {
    const why =
      pages === bound.maxPages
        ? ''
        : pages === capPages
          ? ' (the 10,000-result cap)'
          : budget === undefined
            ? ''
            : budget.milli < pageMilli
              ? ` (${budget.named} pays for no whole page)`
              : ` (as many as ${budget.named} pays for)`;
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
  // A page from the store was paid for when it was bought.
  if (storedAt(data) !== undefined) return 0;
  const said = isJsonObject(data) ? Number(data.credits_cost) : NaN;
  if (isJsonObject(data) && data.credits_cost !== undefined && data.credits_cost !== null && Number.isFinite(said))
    return Math.round(said * 1000);
  if (pp.perItemMilli !== undefined) return Math.round((items?.length ?? 0) * pp.perItemMilli);
  return pp.pageMilli ?? 0;
}

/**
 * What one answered raw request cost, as `api --paginate` counts a page: its own `credits_cost`, else
 * its creators at the per-creator price (Discovery), else the route's price. Undefined when nothing
 * says (an unpriced route whose answer names no cost).
 */
export function rawSpendMilli(req: RawRequest, data: unknown): number | undefined {
  if (storedAt(data) !== undefined) return 0;
  const pp = paginatePlan(req, {});
  const said =
    isJsonObject(data) &&
    data.credits_cost !== undefined &&
    data.credits_cost !== null &&
    Number.isFinite(Number(data.credits_cost));
  if (pp.pageMilli === null && !said) return undefined;
  return pageSpendMilli(pp, data, itemsOfPage(data));
}
