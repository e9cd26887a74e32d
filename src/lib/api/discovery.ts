import { WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../words.js';
import type { HttpClient } from '../http/client.js';
import { keepStoredMark } from '../http/types.js';
import type { Plan } from './plan.js';
import { plural } from '../words.js';
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

/** `sort` as the API takes it (api-contract §3); the fields are checked in lib/discovery/sort.ts. */
export interface SortSpec {
  sort_by: string;
  sort_order: 'asc' | 'desc';
}

export interface DiscoveryAccount extends Record<string, unknown> {
  user_id?: string;
  profile?: Record<string, unknown>;
}

/** api-contract §3/§4; every other field is kept. */
export interface DiscoveryPage extends Record<string, unknown> {
  total?: number;
  limit?: number;
  credits_left?: string | number;
  accounts: DiscoveryAccount[];
  applied_filters?: unknown;
  nlp_search?: string;
}

export type DiscoveryKind = 'search' | 'similar';

export const DISCOVERY_PATHS: Record<DiscoveryKind, string> = {
  search: 'discovery',
  similar: 'discovery/creators/similar',
};

/** At most 50 creators per page (api-contract §3). */
/** A query can reach at most this many results. */
export interface SearchInput {
  platform: string;
  filters: Record<string, unknown>;
  sort?: SortSpec | undefined;
  query?: string | undefined;
  includeLookalikes: boolean;
}

/** The official client sends `filters: null`, not {}, when there are none. */
export function searchBody(input: SearchInput): Record<string, unknown> {
  return {
    platform: input.platform,
    filters: Object.keys(input.filters).length > 0 ? input.filters : null,
    ...(input.sort ? { sort: input.sort } : {}),
    ...(input.query ? { nlp_search: input.query } : {}),
    include_lookalikes: input.includeLookalikes,
  };
}

export interface SimilarInput {
  platform: string;
  by: 'url' | 'username' | 'id';
  value: string;
  filters: Record<string, unknown>;
  includeLookalikes: boolean;
}

/** `include_lookalikes` is not a documented Similar field, so it is sent only when asked for. */
export function similarBody(input: SimilarInput): Record<string, unknown> {
  return {
    platform: input.platform,
    filter_key: input.by,
    filter_value: input.value,
    ...(Object.keys(input.filters).length > 0 ? { filters: input.filters } : {}),
    ...(input.includeLookalikes ? { include_lookalikes: true } : {}),
  };
}

export interface DiscoveryRequest {
  kind: DiscoveryKind;
  body: Record<string, unknown>;
  returnFilterValues?: boolean | undefined;
}

export interface PagePlan {
  limit: number;
  /** 1-based, as the user counts. */
  page: number;
  all: boolean;
  maxResults?: number | undefined;
  priceMilli: number;
}

/** The filter-values rate replaces the base one. */
export function discoveryPriceMilli(kind: DiscoveryKind, returnFilterValues = false): number {
  if (kind === 'similar') return WORST_CASE_MILLI.similarPerCreator;
  return returnFilterValues
    ? WORST_CASE_MILLI.discoveryPerCreatorWithFilterValues
    : WORST_CASE_MILLI.discoveryPerCreator;
}

export function maxPages(plan: PagePlan): number {
  if (!plan.all) return 1;
  const reachable = DISCOVERY_RESULT_CAP - (plan.page - 1) * plan.limit;
  const wanted = Math.min(plan.maxResults ?? DISCOVERY_RESULT_CAP, reachable);
  return Math.max(1, Math.ceil(wanted / plan.limit));
}

export function worstCase(plan: PagePlan): { milli: number; basis: string } {
  if (plan.all && plan.maxResults !== undefined) {
    // The tail is fetched in smaller aligned pages, so exactly this many creators can be bought.
    const wanted = Math.min(plan.maxResults, DISCOVERY_RESULT_CAP - (plan.page - 1) * plan.limit);
    return {
      milli: wanted * plan.priceMilli,
      basis: `${plural(wanted, 'creator')} x ${formatCredits(plan.priceMilli)}, in pages of ${plan.limit}${wanted % plan.limit === 0 ? '' : ' and a smaller last request'}`,
    };
  }
  const pages = maxPages(plan);
  return {
    milli: pages * plan.limit * plan.priceMilli,
    basis: `${plural(plan.limit, 'creator')} x ${plural(pages, 'page')} x ${formatCredits(plan.priceMilli)}`,
  };
}

/** Priced for every page `run` may fetch; without `run`, just this one page. */
export function discoveryPlan(req: DiscoveryRequest, run?: Omit<PagePlan, 'priceMilli'>): Plan {
  const priceMilli = discoveryPriceMilli(req.kind, req.returnFilterValues);
  const paging = req.body.paging as { limit?: unknown } | undefined;
  const limit = typeof paging?.limit === 'number' ? paging.limit : DISCOVERY_PAGE_LIMIT.default;
  const cost = worstCase({ ...(run ?? { limit, page: 1, all: false }), priceMilli });
  return {
    method: 'POST',
    path: DISCOVERY_PATHS[req.kind],
    query: req.returnFilterValues ? { return_filter_values: 'true' } : undefined,
    body: req.body,
    worstCaseMilli: cost.milli,
    costBasis: cost.basis,
    purchase: { kind: 'page', platform: typeof req.body.platform === 'string' ? req.body.platform : undefined },
    label: req.kind === 'similar' ? 'Finding similar creators…' : 'Searching…',
  };
}

export async function postDiscoveryPage(http: HttpClient, req: DiscoveryRequest): Promise<DiscoveryPage> {
  const res = await http.request<unknown>(discoveryPlan(req));
  return pageOf(res.data);
}

/** Its shape was checked by the HTTP client against src/contract/responses.ts before the store kept it. */
export function pageOf(data: unknown): DiscoveryPage {
  const page = (data ?? {}) as Record<string, unknown>;
  const accounts = Array.isArray(page.accounts) ? page.accounts : [];
  const out = {
    ...page,
    accounts: accounts.filter((a): a is DiscoveryAccount => Boolean(a) && typeof a === 'object' && !Array.isArray(a)),
  } as DiscoveryPage;
  return keepStoredMark(data, out);
}
