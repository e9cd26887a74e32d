/**
 * What an answer cost, read from the service's own `credits_cost` but checked against the one price table: a
 * figure is believed only when it is a finite, non-negative number within the route's highest price for the
 * records returned. The spend log, budgets and the summaries a verb prints all read charges through here.
 */
import { PRICES, requestPriceOf, type Price } from '../../contract/prices.js';
import { isExactNumber } from '../exact-json.js';
import type { RequestOptions } from '../http/types.js';
import { itemsOfPage } from '../paging.js';

/** A path (`/public/v1/<route>/`) as the price table names its route. */
export function routeOf(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/^public\/v1\//, '')
    .replace(/\/+$/, '');
}

/** What a charge was read as: the thousandths logged, and the service's own figure when it was not believed. */
export interface ReadCharge {
  milli: number | undefined;
  /** The `credits_cost` refused (as received), with the most the route charges for this answer. */
  refused?: { said: string; mostMilli: number | undefined } | undefined;
}

const PER_CREATOR: readonly Price[] = [
  PRICES.discoveryPerCreator,
  PRICES.discoveryPerCreatorWithFilterValues,
  PRICES.similarPerCreator,
];

/**
 * The route's per-creator price under this query (Discovery with `return_filter_values=true` is dearer), if it has one.
 */
function perCreator(req: Pick<RequestOptions, 'path' | 'query'>): Price | undefined {
  const route = routeOf(req.path);
  const prices = PER_CREATOR.filter((p) => p.route === route);
  const withValues = String((req.query as Record<string, unknown> | undefined)?.return_filter_values ?? '') === 'true';
  return prices.find((p) => (p.query !== undefined) === withValues) ?? prices[0];
}

/**
 * The most the service may charge for this answer: the route's highest published price per creator returned,
 * or per request; undefined for a route the table does not price.
 */
function mostChargedMilli(req: Pick<RequestOptions, 'path' | 'query'>, data: unknown): number | undefined {
  const each = perCreator(req);
  if (each) return (itemsOfPage(data)?.length ?? 0) * each.worstCaseMilli;
  return requestPriceOf(routeOf(req.path))?.worstCaseMilli;
}

/** A number as the service may send one: a JSON number (exact or not) or a decimal string; anything else is NaN. */
function numberOf(said: unknown): number {
  if (typeof said === 'number') return said;
  if (typeof said === 'string') return /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(said) ? Number(said) : NaN;
  return isExactNumber(said) ? Number(said) : NaN;
}

function shown(said: unknown): string {
  return typeof said === 'string' ? JSON.stringify(said) : String(said);
}

/**
 * What the service charged: its own `credits_cost` when it is a finite, non-negative number within what the
 * route charges for this answer (a discount is believed; more, a negative or a non-number is not); else the
 * price table (per creator returned for Discovery, per request elsewhere; nothing found is free); undefined for
 * a route the table does not price. The spend log and budgets sum these, so a lie can neither hide a charge nor
 * block every budgeted run.
 */
export function readCharge(req: Pick<RequestOptions, 'path' | 'query'>, data: unknown, isFound: boolean): ReadCharge {
  const said = data && typeof data === 'object' ? (data as { credits_cost?: unknown }).credits_cost : undefined;
  let refused: ReadCharge['refused'];
  if (said !== undefined && said !== null) {
    const n = numberOf(said);
    const milli = Math.round(n * 1000);
    const most = mostChargedMilli(req, data);
    // An unpriced route has no bound of its own: a figure past exact integer sums is still refused.
    if (Number.isFinite(n) && milli >= 0 && milli <= (most ?? Number.MAX_SAFE_INTEGER)) return { milli };
    refused = { said: shown(said), mostMilli: most };
  }
  if (!isFound) return { milli: 0, refused };
  const each = perCreator(req);
  if (each) return { milli: (itemsOfPage(data)?.length ?? 0) * each.chargedMilli, refused };
  return { milli: requestPriceOf(routeOf(req.path))?.chargedMilli, refused };
}
