/** `listening usage` in words on a terminal: the service's keys named as a person reads them, in its order. */
import { flattenRecord } from '../output/flatten.js';
import type { ColumnSpec, DataRecord } from '../output/types.js';

const LABELS: Record<string, string> = {
  active_subscriptions: 'Active subscriptions',
  paused_subscriptions: 'Paused subscriptions',
  subscription_limit: 'Subscription limit',
  active_campaigns: 'Active campaigns',
  archived_campaigns: 'Archived campaigns',
  campaign_limit: 'Campaign limit',
  monitored_creators: 'Monitored creators',
  creator_limit: 'Creator limit',
  credits_per_creator_day: 'Credits per creator a day',
  estimated_daily_credits: 'Estimated credits a day',
  billing_day: 'Billing day',
  billed_creators_today: 'Creators billed today',
  monitoring_status: 'Monitoring',
  daily_credits: 'Daily charge (credits)',
  monthly_projected_credits: 'Next 30 days (credits)',
  credits_available: 'Credits available',
  runway_days: 'Runway (days)',
};

/** A key the CLI does not know yet is still shown, its underscores and dots as words (`a_b.c_d`: `A b: c d`). */
export function usageLabel(path: string): string {
  const known = LABELS[path];
  if (known !== undefined) return known;
  const words = path
    .split('.')
    .map((part) => part.replace(/_/g, ' '))
    .join(': ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function usageColumns(record: DataRecord): ColumnSpec[] {
  return Object.keys(flattenRecord(record)).map((path) => ({ path, header: usageLabel(path) }));
}
