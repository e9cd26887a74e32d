/**
 * The service charges new creators' day at once and its answer does not say so: the charge is the fall of
 * the balance around the request (two free reads). Runway: whole days the balance covers the daily charge.
 */
import { CHARGED_MILLI } from '../../contract/prices.js';
import { getCredits, toNumber } from '../api/account.js';
import { getUsage } from '../api/listening.js';
import type { HttpClient } from '../http/client.js';
import { countText, creditCount, plural } from '../words.js';

export const DEFAULT_RUNWAY_WARN_DAYS = 7;

export const MONTH_DAYS = 30;

export interface Runway {
  /** Thousandths of a credit, as every amount here; undefined when a read did not say. */
  balanceMilli: number | undefined;
  dailyMilli: number | undefined;
  creators: number | undefined;
}

/** `estimated_daily_credits`, else creators times the price per creator-day (the record's, else the published one). */
export function dailyMilliOf(usage: Record<string, unknown>): number | undefined {
  const estimated = toNumber(usage.estimated_daily_credits);
  if (estimated !== null) return Math.round(estimated * 1000);
  const creators = toNumber(usage.monitored_creators);
  if (creators === null) return undefined;
  const price = toNumber(usage.credits_per_creator_day);
  return Math.round(creators * (price === null ? CHARGED_MILLI.monitoringPerCreatorDay : price * 1000));
}

export async function balanceMilli(http: HttpClient): Promise<number | undefined> {
  const credits = await getCredits(http);
  return credits.credits_available === null ? undefined : Math.round(credits.credits_available * 1000);
}

export async function readRunway(http: HttpClient): Promise<Runway> {
  const [balance, usage] = await Promise.all([balanceMilli(http), getUsage(http)]);
  const creators = toNumber(usage.monitored_creators);
  return { balanceMilli: balance, dailyMilli: dailyMilliOf(usage), creators: creators === null ? undefined : creators };
}

export function runwayDays(r: Pick<Runway, 'balanceMilli' | 'dailyMilli'>): number | undefined {
  if (r.balanceMilli === undefined || r.dailyMilli === undefined || r.dailyMilli <= 0) return undefined;
  return Math.floor(Math.max(0, r.balanceMilli) / r.dailyMilli);
}

export function runwayText(days: number): string {
  return days < 1
    ? 'the balance covers less than a day of monitoring'
    : `the balance covers ${plural(days, 'day')} of monitoring`;
}

/** `chargedMilli` undefined: the balance could not be read around the request. */
export function chargeLine(chargedMilli: number | undefined, after: Runway): string {
  const now =
    chargedMilli === undefined
      ? 'The charge made now could not be read (see creators credits)'
      : chargedMilli <= 0
        ? 'Nothing charged now (these creators were already paid for today)'
        : `Charged ${creditCount(chargedMilli)} now for today's monitoring`;
  if (after.dailyMilli === undefined) return `${now}.`;
  const who = after.creators === undefined ? '' : ` for ${plural(after.creators, 'monitored creator')}`;
  const days = runwayDays(after);
  return `${now}; from now on ${creditCount(after.dailyMilli)} a day${who} (${creditCount(after.dailyMilli * MONTH_DAYS)} a month)${days === undefined ? '' : `; ${runwayText(days)}`}.`;
}

export function runwayWarning(r: Runway, warnDays: number): string | undefined {
  const days = runwayDays(r);
  if (days === undefined || days >= warnDays || r.dailyMilli === undefined || r.balanceMilli === undefined)
    return undefined;
  const covers = days < 1 ? 'less than a day' : plural(days, 'day');
  return `Monitoring costs ${creditCount(r.dailyMilli)} a day and the balance (${creditCount(r.balanceMilli)}) covers ${covers}, under runway-warn-days ${countText(warnDays)}: top up before monitoring pauses.`;
}

/** The usage record with what it costs from now on, after the service's own fields. */
export function withRunway(
  usage: Record<string, unknown>,
  balance: number | undefined,
): { record: Record<string, unknown>; runway: Runway } {
  const creators = toNumber(usage.monitored_creators);
  const runway: Runway = {
    balanceMilli: balance,
    dailyMilli: dailyMilliOf(usage),
    creators: creators === null ? undefined : creators,
  };
  const credits = (milli: number | undefined): number | null => (milli === undefined ? null : milli / 1000);
  return {
    record: {
      ...usage,
      daily_credits: credits(runway.dailyMilli),
      monthly_projected_credits: credits(runway.dailyMilli === undefined ? undefined : runway.dailyMilli * MONTH_DAYS),
      credits_available: credits(balance),
      runway_days: runwayDays(runway) ?? null,
    },
    runway,
  };
}
