import type { HttpClient } from '../http/client.js';
import { freePlan, type Plan } from './plan.js';

export interface Credits extends Record<string, unknown> {
  credits_available: number | null;
  credits_used: number | null;
}

/**
 * Sources disagree on the shape: `credits_available` + `credits_used`, or `credits_left`; numbers or strings. Both are
 * read.
 */
export async function getCredits(http: HttpClient): Promise<Credits> {
  const res = await http.request<Record<string, unknown>>(creditsPlan());
  return normaliseCredits(res.data);
}

export function creditsPlan(): Plan {
  return { ...freePlan('GET', 'accounts/credits'), label: 'Checking credits…' };
}

export function normaliseCredits(data: unknown): Credits {
  const raw = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const available = toNumber(raw.credits_available ?? raw.credits_left ?? raw.balance);
  const used = toNumber(raw.credits_used);
  return { ...raw, credits_available: available, credits_used: used };
}

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
