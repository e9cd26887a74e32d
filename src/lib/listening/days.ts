/** How many days creators added to a campaign now would be monitored (and billed). */
const DAY_MS = 86_400_000;

/**
 * How many days creators added now would be monitored (and billed) by `campaign`: from today
 * (UTC date of `nowMs`) to its `end_date`, never more than its `days` and at least 1 (today is
 * billed as soon as they are added, and a client clock behind or ahead of the server's must not
 * shrink the estimate to nothing); its `days` when it has no end date; undefined when it is
 * open-ended (neither field), which the caller then treats as a per-day cost.
 */
export function remainingDays(campaign: Record<string, unknown>, nowMs: number): number | undefined {
  const rawDays = Number(campaign.days);
  const days = campaign.days !== null && Number.isInteger(rawDays) && rawDays > 0 ? rawDays : undefined;
  const end = typeof campaign.end_date === 'string' ? Date.parse(`${campaign.end_date.slice(0, 10)}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(end)) return days;
  const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
  const left = Math.round((end - today) / DAY_MS);
  return Math.max(1, days === undefined ? left : Math.min(days, left));
}

/** The days left in a campaign (see remainingDays) and a note saying where they came from. */
export function campaignDuration(campaign: Record<string, unknown>, id: string, nowMs: number): { days?: number; note?: string } {
  const days = remainingDays(campaign, nowMs);
  if (days === undefined) return {};
  const end = typeof campaign.end_date === 'string' ? `, ends ${campaign.end_date.slice(0, 10)}` : '';
  return { days, note: `days left in campaign ${id}${end}` };
}
