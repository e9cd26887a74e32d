import type { EmailMode, HandleMode } from '../../contract/platforms.js';
import { MODE_PRICE, WORST_CASE_MILLI } from '../../contract/prices.js';
import { formatCredits } from '../cost.js';
import { UsageError } from '../errors.js';
import { normalizeHandle } from '../../contract/handles.js';
import { storedAt, type HttpClient, type Purchase } from '../http/client.js';
import { looksLikeEmail } from '../csv/detect.js';
import type { Plan } from './plan.js';

/** Modes and the platforms each handle mode accepts live in src/contract/platforms.ts, shared with the sandbox. */
export { EMAIL_MODES, HANDLE_MODES, type HandleMode } from '../../contract/platforms.js';

export interface HandleOptions {
  mode: HandleMode;
  platform: string;
  /** `must_have` | `preferred`; profile and full only. */
  emailRequired?: 'must_have' | 'preferred' | undefined;
  /** analytics and full; always sent explicitly (default false) because the default changed in 2026. */
  includeLookalikes?: boolean | undefined;
  /** full only; sent explicitly (default false). */
  includeAudienceData?: boolean | undefined;
}

export interface EmailOptions {
  mode: EmailMode;
  minFollowers?: number | undefined;
  excludePlatforms?: readonly string[] | undefined;
}

/** What one enrichment call came back with. `not_found` is a normal answer that costs nothing. */
export interface EnrichOutcome {
  status: 'ok' | 'not_found';
  /** The `result` object (per-platform blocks and general keys), or null when nothing was found. */
  result: Record<string, unknown> | null;
  /** Credits the server says it charged (0 when not found or not reported). */
  creditsCost: number;
  /** The whole response body, unknown fields included. */
  response: unknown;
  /** Set when the answer came from the store (bought then, 0 credits now). */
  storedAt?: number | undefined;
}

export function handlePath(mode: HandleMode): string {
  return `creators/enrich/handle/${mode}`;
}

export function emailPath(mode: EmailMode): string {
  return mode === 'advanced' ? 'creators/enrich/email/advanced' : 'creators/enrich/email';
}

/** Trims a handle and checks its length (1-200, as the official client does); the API normalises the rest. */
export function cleanHandle(raw: string): string {
  const handle = raw.trim();
  if (!handle) throw new UsageError('Empty handle.');
  if (handle.length > 200) throw new UsageError(`Handle too long (${handle.length} characters, at most 200).`);
  return handle;
}

/** Lower-cases an address and checks its form (lib/csv/detect.ts, the one email check) before sending. */
export function cleanEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!looksLikeEmail(email)) throw new UsageError(`Invalid email address '${raw.trim()}'.`);
  return email;
}

/** The request body of a handle mode: only the fields that mode takes (api-contract.md §7). */
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
 * Reads an enrichment answer. Found: `{result: {...}, credits_cost}` (the official fixture). Not found:
 * `result` null or empty, or `status: "not_found"` (the sandbox's choice; the real shape is unpublished).
 */
export function readOutcome(data: unknown): EnrichOutcome {
  const body = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const raw = body.result;
  const result = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const cost = Number(body.credits_cost ?? 0);
  const notFound = body.status === 'not_found' || result === null || Object.keys(result).length === 0;
  // An answer from the store was paid for when it was bought: it costs nothing now.
  const stored = storedAt(data);
  if (stored !== undefined) return { status: notFound ? 'not_found' : 'ok', result: notFound ? null : result, creditsCost: 0, response: data, storedAt: stored };
  return { status: notFound ? 'not_found' : 'ok', result: notFound ? null : result, creditsCost: Number.isFinite(cost) ? cost : 0, response: data };
}

/**
 * One enrichment request as a plan, at the mode's worst-case price from src/contract (email basic:
 * the higher of the two published prices); nothing found costs nothing, so this bounds the bill.
 */
function enrichPlan(path: string, mode: HandleMode | EmailMode, body: Record<string, unknown>, purchase: Purchase): Plan {
  const price = WORST_CASE_MILLI[MODE_PRICE[mode]];
  return { method: 'POST', path, body, worstCaseMilli: price, costBasis: `1 request x ${formatCredits(price)}`, purchase, label: 'Enriching…' };
}

/** The plan of `enrichHandle`. */
export function enrichHandlePlan(handle: string, options: HandleOptions): Plan {
  return enrichPlan(handlePath(options.mode), options.mode, handleBody(handle, options), { kind: 'creator', platform: options.platform, subject: normalizeHandle(handle) });
}

/** The plan of `enrichEmail`. */
export function enrichEmailPlan(email: string, options: EmailOptions): Plan {
  return enrichPlan(emailPath(options.mode), options.mode, emailBody(email, options), { kind: 'creator', subject: email.toLowerCase() });
}

/** `POST /public/v1/creators/enrich/handle/<mode>/`. */
export async function enrichHandle(http: HttpClient, handle: string, options: HandleOptions): Promise<EnrichOutcome> {
  const res = await http.request(enrichHandlePlan(handle, options));
  return readOutcome(res.data);
}

/** `POST /public/v1/creators/enrich/email/` (basic) or `.../email/advanced/`. */
export async function enrichEmail(http: HttpClient, email: string, options: EmailOptions): Promise<EnrichOutcome> {
  const res = await http.request(enrichEmailPlan(email, options));
  return readOutcome(res.data);
}
