import { WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../cost.js';
import type { SortSpec } from '../discovery/sort.js';
import { keepStoredMark, type HttpClient } from '../http/client.js';
import type { Plan } from './plan.js';
import { plural } from '../output/humanize.js';
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

/** One creator of a Discovery or Similar page; unknown fields are kept as they came. */
export interface DiscoveryAccount extends Record<string, unknown> {
  user_id?: string;
  profile?: Record<string, unknown>;
}

/** A page of Discovery or Similar results (api-contract §3/§4); every other field is kept. */
export interface DiscoveryPage extends Record<string, unknown> {
  total?: number;
  limit?: number;
  /** A string on the wire ("11849.48"); sometimes a number. */
  credits_left?: string | number;
  accounts: DiscoveryAccount[];
  applied_filters?: unknown;
  nlp_search?: string;
}

export type DiscoveryKind = 'search' | 'similar';

/** Route per kind. Both are billable POSTs: 0.01 per creator returned (0.03 with filter values). */
export const DISCOVERY_PATHS: Record<DiscoveryKind, string> = {
  search: 'discovery',
  similar: 'discovery/creators/similar',
};

/** What a search asks for (everything but paging). */
export interface SearchInput {
  platform: string;
  filters: Record<string, unknown>;
  sort?: SortSpec | undefined;
  /** `--query`: a brief the server maps to filters. */
  query?: string | undefined;
  includeLookalikes: boolean;
}

/** The body of a search without `paging`. The official client sends `filters: null`, not {}, when there are none. */
export function searchBody(input: SearchInput): Record<string, unknown> {
  return {
    platform: input.platform,
    filters: Object.keys(input.filters).length > 0 ? input.filters : null,
    ...(input.sort ? { sort: input.sort } : {}),
    ...(input.query ? { nlp_search: input.query } : {}),
    include_lookalikes: input.includeLookalikes,
  };
}

/** What a Similar request asks for (everything but paging). */
export interface SimilarInput {
  platform: string;
  by: 'url' | 'username' | 'id';
  value: string;
  filters: Record<string, unknown>;
  includeLookalikes: boolean;
}

/**
 * The body of a Similar request without `paging`. The official client omits filters when there are
 * none; `include_lookalikes` is not a documented Similar field, so it is sent only when asked for.
 */
export function similarBody(input: SimilarInput): Record<string, unknown> {
  return {
    platform: input.platform,
    filter_key: input.by,
    filter_value: input.value,
    ...(Object.keys(input.filters).length > 0 ? { filters: input.filters } : {}),
    ...(input.includeLookalikes ? { include_lookalikes: true } : {}),
  };
}

/** One Discovery or Similar request: the body carries `paging`; `returnFilterValues` is search only. */
export interface DiscoveryRequest {
  kind: DiscoveryKind;
  body: Record<string, unknown>;
  returnFilterValues?: boolean | undefined;
}

/** Which pages a run asks for, and at what price (thousandths of a credit per creator returned). */
export interface PagePlan {
  /** Creators per page (1-50). */
  limit: number;
  /** 1-based page to start from, as the user counts. */
  page: number;
  all: boolean;
  /** Stop after exactly this many creators (with `all`). */
  maxResults?: number | undefined;
  /** Price per creator returned, in thousandths of a credit. */
  priceMilli: number;
}

/** The worst-case price of one creator returned (src/contract/prices.ts): the filter-values rate replaces the base one. */
export function discoveryPriceMilli(kind: DiscoveryKind, returnFilterValues = false): number {
  if (kind === 'similar') return WORST_CASE_MILLI.similarPerCreator;
  return returnFilterValues ? WORST_CASE_MILLI.discoveryPerCreatorWithFilterValues : WORST_CASE_MILLI.discoveryPerCreator;
}

/** How many pages a run may fetch at most: one, or up to `--max-results` / the 10,000 cap. */
export function maxPages(plan: PagePlan): number {
  if (!plan.all) return 1;
  const reachable = DISCOVERY_RESULT_CAP - (plan.page - 1) * plan.limit;
  const wanted = Math.min(plan.maxResults ?? DISCOVERY_RESULT_CAP, reachable);
  return Math.max(1, Math.ceil(wanted / plan.limit));
}

/** The worst case: limit x pages x price (or exactly `maxResults` x price), with the words for `--dry-run` and `--max-credits`. */
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

/**
 * The plan of a Discovery run: its first request, priced from the contract for every page `run` may
 * fetch (limit x pages x price, or exactly `maxResults` x price); without `run`, just this one page.
 */
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

/**
 * `POST /public/v1/discovery/` or `/discovery/creators/similar/`: one page. The caller has already
 * passed the money gate. `returnFilterValues` adds `?return_filter_values=true` (search only).
 */
export async function postDiscoveryPage(http: HttpClient, req: DiscoveryRequest): Promise<DiscoveryPage> {
  const res = await http.request<unknown>(discoveryPlan(req));
  return pageOf(res.data);
}

/**
 * A page as the CLI reads it. Its shape (an object with an `accounts` list of objects) was checked by the
 * HTTP client against src/contract/responses.ts before the store kept it.
 */
export function pageOf(data: unknown): DiscoveryPage {
  const page = (data ?? {}) as Record<string, unknown>;
  const accounts = Array.isArray(page.accounts) ? page.accounts : [];
  const out = {
    ...page,
    accounts: accounts.filter((a): a is DiscoveryAccount => Boolean(a) && typeof a === 'object' && !Array.isArray(a)),
  } as DiscoveryPage;
  return keepStoredMark(data, out);
}
