/**
 * A plan: one request described before it is sent (method, API path, query, body) with its
 * worst-case price. `lib/api` functions that send a request also describe it as a plan; `--dry-run`,
 * `--max-credits` and the confirmation above `confirm-above` read plans (lib/cost.ts `gate`).
 */
import type { Method, Purchase } from '../http/client.js';
import { buildUrl, type Query } from '../http/url.js';

export interface Plan {
  method: Method;
  /** API path as sent (`/public/v1/` and the trailing slash are added by the URL rules). */
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /** Worst-case cost in thousandths of a credit; null when it cannot be known in advance. */
  worstCaseMilli: number | null;
  /** What the cost is made of, e.g. `50 creators x 2 pages x 0.01`. */
  costBasis?: string | undefined;
  /** What a billable request buys, for the purchase memory (lib/store): reused within its window, kept once paid. */
  purchase?: Purchase | undefined;
}

/** A free plan (reads, and writes the service does not bill). */
export function freePlan(method: Method, path: string, extra: Pick<Plan, 'query' | 'body'> = {}): Plan {
  return { method, path, ...extra, worstCaseMilli: 0 };
}

/** The URL a plan goes to: the same rules the HTTP client applies when it sends it. */
export function planUrl(baseUrl: URL, plan: Pick<Plan, 'path' | 'query'>): URL {
  return buildUrl(baseUrl, plan.path, plan.query);
}
