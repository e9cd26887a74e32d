/**
 * Monitoring billing (service-spec.md, Limits → Credits): 0.3 credits per DISTINCT creator per day,
 * however many subscriptions or campaigns watch it. A day is charged for a creator once, the first
 * moment it is monitored that day (the day boundary, or when it is added); removal refunds nothing.
 * When the balance cannot cover the charge, all monitoring pauses until resumed after a top-up.
 */
import { CHARGED_MILLI } from '../../contract/prices.js';
import { canAfford, charge, toCredits } from '../ledger.js';
import type { SandboxState } from '../state.js';
import { dayOf, listening, monitoredCreators, type ListeningState } from './model.js';

const ROUTE = '/public/v1/social/listening/ (monitoring)';

/** Starts a new billing day: nobody has been charged for it yet. */
export function openDay(ls: ListeningState, ms: number): void {
  const day = dayOf(ms);
  if (ls.billing.day !== day) ls.billing = { day, creators: new Set() };
}

/**
 * Charges today's share for monitored creators not yet paid for today. Returns false (and charges
 * nothing) when the balance cannot cover it; the caller decides whether that pauses or refuses.
 */
export function billToday(state: SandboxState, ms: number): boolean {
  const ls = listening(state);
  openDay(ls, ms);
  const unpaid = [...monitoredCreators(ls, ms).keys()].filter((key) => !ls.billing.creators.has(key));
  if (unpaid.length === 0) return true;
  const perDay = CHARGED_MILLI.monitoringPerCreatorDay;
  const milli = unpaid.length * perDay;
  if (!canAfford(state, milli)) return false;
  charge(state, ROUTE, milli, `monitoring ${ls.billing.day}: ${unpaid.length} creator(s) x ${toCredits(perDay)}`);
  for (const key of unpaid) ls.billing.creators.add(key);
  return true;
}

/** Pauses every active subscription and campaign because the day could not be paid. */
export function pauseAll(ls: ListeningState, iso: string): void {
  for (const s of ls.subscriptions.values()) {
    if (s.status === 'active')
      Object.assign(s, { status: 'paused', paused_reason: 'insufficient_credits', updated_at: iso });
  }
  for (const c of ls.campaigns.values()) {
    if (c.status === 'active')
      Object.assign(c, { status: 'paused', paused_reason: 'insufficient_credits', updated_at: iso });
  }
}

/** Bills today, pausing all monitoring when the balance cannot cover it. Returns whether it was paid. */
export function billOrPause(state: SandboxState, ms: number): boolean {
  if (billToday(state, ms)) return true;
  pauseAll(listening(state), new Date(ms).toISOString());
  return false;
}

/** What the monitored creators cost per day right now, in thousandths. */
export function dailyMilli(ls: ListeningState, ms: number): number {
  return monitoredCreators(ls, ms).size * CHARGED_MILLI.monitoringPerCreatorDay;
}
