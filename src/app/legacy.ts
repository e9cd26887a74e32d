/**
 * TRANSITIONAL: the hand-built gate of the old layout, kept only while commands move to plans
 * (`ctx.gate(plan)`). Deleted when the last caller is gone.
 */
import type { Method } from '../lib/http/client.js';
import type { Context } from './context.js';

export interface PlannedRequest {
  method: string;
  url: string;
  body?: unknown;
  worstCaseMilli: number | null;
  costBasis?: string | undefined;
}

/** The old `guardCost(ctx, {method, url, ...})`, answered by `ctx.gate`. */
export async function guardCost(ctx: Context, planned: PlannedRequest): Promise<boolean> {
  const url = new URL(planned.url);
  const base = (await ctx.baseUrl()).pathname.replace(/\/+$/, '');
  const path = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
  const query = Object.fromEntries(url.searchParams.entries());
  return ctx.gate({
    method: planned.method as Method,
    path,
    query: Object.keys(query).length > 0 ? query : undefined,
    body: planned.body,
    worstCaseMilli: planned.worstCaseMilli,
    costBasis: planned.costBasis,
  });
}

/** The old `maxCreditsMilli(ctx)`. */
export async function maxCreditsMilli(ctx: Context): Promise<number | undefined> {
  return (await ctx.moneyPolicy()).maxCreditsMilli;
}
