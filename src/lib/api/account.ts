import type { HttpClient } from '../http/client.js';
import { freePlan, type Plan } from './plan.js';

/** The credits record, normalised: `credits_available`/`credits_used` as numbers, every other field kept. */
export interface Credits extends Record<string, unknown> {
  credits_available: number | null;
  credits_used: number | null;
}

/**
 * `GET /public/v1/accounts/credits/` (free). Sources disagree on the shape: `credits_available` +
 * `credits_used`, or `credits_left`; numbers or strings. Both are read.
 */
export async function getCredits(http: HttpClient): Promise<Credits> {
  const res = await http.request<Record<string, unknown>>(creditsPlan());
  return normaliseCredits(res.data);
}

/** The plan of `getCredits`. */
export function creditsPlan(): Plan {
  return { ...freePlan('GET', 'accounts/credits'), label: 'Checking credits…' };
}

export function normaliseCredits(data: unknown): Credits {
  const raw = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const available = toNumber(raw.credits_available ?? raw.credits_left ?? raw.balance);
  const used = toNumber(raw.credits_used);
  return { ...raw, credits_available: available, credits_used: used };
}

/** A number from a number or a numeric string (the API sends both); null otherwise. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
