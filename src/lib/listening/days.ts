const DAY_MS = 86_400_000;

/**
 * Days billed for creators added now: to `end_date`, at most `days`, at least 1 (today is billed at once, and
 * clock skew must not shrink the estimate to nothing). Undefined when open-ended: priced per day.
 */
export function remainingDays(campaign: Record<string, unknown>, nowMs: number): number | undefined {
  const rawDays = Number(campaign.days);
  const days = campaign.days !== null && Number.isInteger(rawDays) && rawDays > 0 ? rawDays : undefined;
  const end =
    typeof campaign.end_date === 'string' ? Date.parse(`${campaign.end_date.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(end)) return days;
  const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
  const left = Math.round((end - today) / DAY_MS);
  return Math.max(1, days === undefined ? left : Math.min(days, left));
}

export function campaignDuration(
  campaign: Record<string, unknown>,
  id: string,
  nowMs: number,
): { days?: number; note?: string } {
  const days = remainingDays(campaign, nowMs);
  if (days === undefined) return {};
  const end = typeof campaign.end_date === 'string' ? `, ends ${campaign.end_date.slice(0, 10)}` : '';
  return { days, note: `days left in campaign ${id}${end}` };
}
