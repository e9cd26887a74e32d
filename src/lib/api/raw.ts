/**
 * The raw request of `creators api <path>`: any method and path, with the same auth, retries,
 * money gate and output as every other command. Its plan is raw-plan.ts.
 */
import type { HttpClient } from '../http/client.js';
import type { HttpResponse, Method, Purchase } from '../http/types.js';
import type { Query } from '../http/url.js';

export interface RawRequest {
  method: Method;
  /** API path as the user gave it; it may carry its own query (`discovery?return_filter_values=true`). */
  path: string;
  query?: Query | undefined;
  body?: Record<string, unknown> | undefined;
  /** The spinner's text, from the typed plan of its route (raw-plan.ts). */
  label?: string | undefined;
  /**
   * What a known paid route buys, from its verb's plan (raw-plan.ts): the store answers and keeps it as it does the
   * verb's.
   */
  purchase?: Purchase | undefined;
}

/** Sends the raw request; the response body is parsed as JSON when it is JSON. */
export function sendRawRequest(http: HttpClient, req: RawRequest): Promise<HttpResponse<unknown>> {
  return http.request<unknown>({
    method: req.method,
    path: req.path,
    query: req.query,
    body: req.body,
    label: req.label,
    purchase: req.purchase,
    responseType: 'json-or-text',
  });
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
