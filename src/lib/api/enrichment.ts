import type { EmailMode, HandleMode } from '../../contract/platforms.js';
import { MODE_PRICE, WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../words.js';
import { JsonText } from '../exact-json.js';
import { UsageError } from '../errors.js';
import { normalizeHandle } from '../../contract/handles.js';
import type { HttpClient } from '../http/client.js';
import { storedAt, type Purchase } from '../http/types.js';
import { looksLikeEmail } from '../csv/detect.js';
import type { Plan } from './plan.js';
import { readCharge } from './charge.js';

export interface HandleOptions {
  mode: HandleMode;
  platform: string;
  emailRequired?: 'must_have' | 'preferred' | undefined;
  /** Always sent explicitly (default false): the service's default changed in 2026. */
  includeLookalikes?: boolean | undefined;
  includeAudienceData?: boolean | undefined;
}

export interface EmailOptions {
  mode: EmailMode;
  minFollowers?: number | undefined;
  excludePlatforms?: readonly string[] | undefined;
}

/** `not_found` is a normal answer that costs nothing. */
export interface EnrichOutcome<R = Record<string, unknown>> {
  status: 'ok' | 'not_found';
  /** An object (`JsonText`: its exact text, from the store, for a request that took it unparsed). */
  result: R | null;
  creditsCost: number;
  response: unknown;
  /** From the store: bought then, 0 credits now. */
  storedAt?: number | undefined;
}

export function handlePath(mode: HandleMode): string {
  return `creators/enrich/handle/${mode}`;
}

export function emailPath(mode: EmailMode): string {
  return mode === 'advanced' ? 'creators/enrich/email/advanced' : 'creators/enrich/email';
}

/** 1-200 characters, as the official client checks; the API normalises the rest. */
export function cleanHandle(raw: string): string {
  const handle = raw.trim();
  if (!handle) throw new UsageError('Empty handle.');
  if (handle.length > 200) throw new UsageError(`Handle too long (${handle.length} characters, at most 200).`);
  return handle;
}

export function cleanEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!looksLikeEmail(email)) throw new UsageError(`Invalid email address '${raw.trim()}'.`);
  return email;
}

/** Only the fields that mode takes (api-contract.md §7). */
export function handleBody(handle: string, o: HandleOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { handle, platform: o.platform };
  if (o.mode === 'profile' || o.mode === 'full') body.email_required = o.emailRequired ?? 'preferred';
  if (o.mode === 'analytics' || o.mode === 'full') body.include_lookalikes = o.includeLookalikes ?? false;
  if (o.mode === 'full') body.include_audience_data = o.includeAudienceData ?? false;
  return body;
}

export function emailBody(email: string, o: EmailOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { email };
  if (o.mode === 'advanced') {
    if (o.minFollowers !== undefined) body.min_followers = o.minFollowers;
    if (o.excludePlatforms && o.excludePlatforms.length > 0) body.exclude_platforms = [...o.excludePlatforms];
  }
  return body;
}

/**
 * Not found: `result` null or empty, or `status: "not_found"` (the sandbox's choice; the real shape is unpublished).
 */
export function readOutcome(data: unknown, req?: Pick<Plan, 'path' | 'query'>): EnrichOutcome {
  const body = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const raw = body.result;
  const result = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const cost = Number(body.credits_cost ?? 0);
  const notFound = body.status === 'not_found' || result === null || Object.keys(result).length === 0;
  // An answer from the store was paid for when it was bought: it costs nothing now.
  const stored = storedAt(data);
  if (stored !== undefined)
    return {
      status: notFound ? 'not_found' : 'ok',
      result: notFound ? null : result,
      creditsCost: 0,
      response: data,
      storedAt: stored,
    };
  // A figure the route cannot charge is shown as the spend log takes it (lib/api/charge.ts), not as sent.
  const checked =
    req && body.credits_cost !== undefined && body.credits_cost !== null ? readCharge(req, data, !notFound) : undefined;
  if (checked?.refused)
    return {
      status: notFound ? 'not_found' : 'ok',
      result: notFound ? null : result,
      creditsCost: (checked.milli ?? 0) / 1000,
      response: data,
    };
  return {
    status: notFound ? 'not_found' : 'ok',
    result: notFound ? null : result,
    creditsCost: Number.isFinite(cost) ? cost : 0,
    response: data,
  };
}

/** Email basic at the higher of two published prices; nothing found costs nothing, so this bounds the bill. */
/** A bulk run plans every row up to three times (count, read ahead, request): one text a price. */
const BASIS = new Map<number, string>();

function enrichPlan(
  path: string,
  mode: HandleMode | EmailMode,
  body: Record<string, unknown>,
  purchase: Purchase,
): Plan {
  const price = WORST_CASE_MILLI[MODE_PRICE[mode]];
  let basis = BASIS.get(price);
  if (basis === undefined) BASIS.set(price, (basis = `1 request x ${formatCredits(price)}`));
  return {
    method: 'POST',
    path,
    body,
    worstCaseMilli: price,
    costBasis: basis,
    purchase,
    label: 'Enriching…',
  };
}

export function enrichHandlePlan(handle: string, options: HandleOptions): Plan {
  return enrichPlan(handlePath(options.mode), options.mode, handleBody(handle, options), {
    kind: 'creator',
    platform: options.platform,
    subject: normalizeHandle(handle),
  });
}

export function enrichEmailPlan(email: string, options: EmailOptions): Plan {
  return enrichPlan(emailPath(options.mode), options.mode, emailBody(email, options), {
    kind: 'creator',
    subject: email.toLowerCase(),
  });
}

/** A stored answer's `result` goes on as its text: a bulk run writes it out as it is, without parsing it. */
const UNPARSED = ['result'] as const;

/** An enrichment's outcome, whose result may be its stored text (`UNPARSED`). */
export type EnrichTextOutcome = EnrichOutcome<Record<string, unknown> | JsonText>;

/** `readOutcome`, a stored result taken unparsed kept as its text: whether it is an object, and empty, is in the text. */
export function readTextOutcome(data: unknown, req?: Pick<Plan, 'path' | 'query'>): EnrichTextOutcome {
  const body = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const stored = storedAt(data);
  if (!(body.result instanceof JsonText) || stored === undefined) return readOutcome(data, req);
  const text = body.result.text;
  const notFound = body.status === 'not_found' || text.charCodeAt(0) !== 0x7b || text === '{}';
  return {
    status: notFound ? 'not_found' : 'ok',
    result: notFound ? null : body.result,
    creditsCost: 0,
    response: data,
    storedAt: stored,
  };
}

export async function enrichHandle(
  http: HttpClient,
  handle: string,
  options: HandleOptions,
): Promise<EnrichTextOutcome> {
  const plan = enrichHandlePlan(handle, options);
  const res = await http.request({ ...plan, unparsed: UNPARSED });
  return readTextOutcome(res.data, plan);
}

export async function enrichEmail(http: HttpClient, email: string, options: EmailOptions): Promise<EnrichTextOutcome> {
  const plan = enrichEmailPlan(email, options);
  const res = await http.request({ ...plan, unparsed: UNPARSED });
  return readTextOutcome(res.data, plan);
}
