/**
 * The raw request of `creators api <path>`: any method and path, with the same auth, retries,
 * money gate and output as every other command. Its plan prices known routes from the shared table
 * (lib/cost.ts `estimateRouteCost`); unknown writes have an unknown worst case.
 */
import { estimateRouteCost } from '../cost.js';
import type { HttpClient, HttpResponse, Method } from '../http/client.js';
import { buildUrl, type Query } from '../http/url.js';
import type { Plan } from './plan.js';

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

/** Sends the raw request; the response body is parsed as JSON when it is JSON. */
export function sendRawRequest(http: HttpClient, req: RawRequest): Promise<HttpResponse<unknown>> {
  return http.request<unknown>({ method: req.method, path: req.path, query: req.query, body: req.body, responseType: 'json' });
}
