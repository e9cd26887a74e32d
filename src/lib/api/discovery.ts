import { ApiError } from '../errors.js';
import type { HttpClient } from '../http/client.js';

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

/**
 * `POST /public/v1/discovery/` or `/discovery/creators/similar/`: one page. The caller has already
 * passed the money gate. `returnFilterValues` adds `?return_filter_values=true` (search only).
 */
export async function postDiscoveryPage(
  http: HttpClient,
  kind: DiscoveryKind,
  body: Record<string, unknown>,
  returnFilterValues = false,
): Promise<DiscoveryPage> {
  const res = await http.request<unknown>({
    method: 'POST',
    path: DISCOVERY_PATHS[kind],
    query: returnFilterValues ? { return_filter_values: 'true' } : undefined,
    body,
  });
  return pageOf(res.data);
}

/** Checks the envelope: an object with an `accounts` list (a missing list is an empty page). */
export function pageOf(data: unknown): DiscoveryPage {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ApiError('The server sent a Discovery response that is not an object.', { code: 'malformed_response' });
  }
  const page = data as Record<string, unknown>;
  const accounts = Array.isArray(page.accounts) ? page.accounts : [];
  return {
    ...page,
    accounts: accounts.filter((a): a is DiscoveryAccount => Boolean(a) && typeof a === 'object' && !Array.isArray(a)),
  } as DiscoveryPage;
}
