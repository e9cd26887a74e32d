/**
 * A run whose worst case, added to the period's spend and live runs' reservations, passes `daily-budget` or
 * `monthly-budget` is refused before anything is sent. Periods are the local calendar day and month.
 */
import { formatCredits } from '../words.js';
import { CreditsError } from '../errors.js';
import { openJobsMilli } from './jobs.js';
import type { PurchaseMemoryImpl } from './memory.js';

export interface BudgetInput {
  profile: string;
  now: number;
  /** The plan's worst case in thousandths; null when it cannot be known. */
  worstMilli: number | null;
  daily?: string | undefined;
  monthly?: string | undefined;
}

function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function startOfMonth(now: number): number {
  const d = new Date(now);
  d.setDate(1);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function milli(raw: string | undefined): number | undefined {
  return raw === undefined ? undefined : Math.round(Number(raw) * 1000);
}

export async function reserveBudget(memory: PurchaseMemoryImpl, b: BudgetInput): Promise<void> {
  const daily = milli(b.daily);
  const monthly = milli(b.monthly);
  if (b.worstMilli === null) {
    throw new CreditsError(
      'The worst-case cost of this command cannot be known, and a budget is set (daily-budget / monthly-budget); nothing was sent.',
      {
        code: 'budget',
        hint: 'Bound the run (--max-rows, --max-results, --max-pages) so its worst case is known.',
      },
    );
  }
  // Batch jobs still running charge after their create: their worst case (less what is logged) is held too.
  const since = Math.min(
    daily === undefined ? b.now : startOfDay(b.now),
    monthly === undefined ? b.now : startOfMonth(b.now),
  );
  const open = await openJobsMilli(memory, b.profile, since);
  const refusal = await memory.store.reserve(
    {
      profile: b.profile,
      worstMilli: b.worstMilli + open.milli,
      now: b.now,
      daily: daily === undefined ? undefined : { limitMilli: daily, since: startOfDay(b.now) },
      monthly: monthly === undefined ? undefined : { limitMilli: monthly, since: startOfMonth(b.now) },
    },
    memory.holder,
  );
  if (!refusal) return;
  const period = refusal.period === 'daily' ? 'today' : 'this month';
  const reserved =
    refusal.reservedMilli > 0
      ? ` and ${formatCredits(refusal.reservedMilli)} reserved by runs in progress (creators store doctor shows them)`
      : '';
  const jobs =
    open.milli > 0
      ? `, up to ${formatCredits(open.milli)} more for batch ${open.jobs.length === 1 ? 'job' : 'jobs'} ${open.jobs.join(', ')} not yet seen finished (creators batch status <id> settles it)`
      : '';
  const left = Math.max(0, refusal.limitMilli - refusal.spentMilli - refusal.reservedMilli - open.milli);
  throw new CreditsError(
    `This run could cost up to ${formatCredits(b.worstMilli)} credits, over the ${refusal.period}-budget of ${formatCredits(refusal.limitMilli)}: ${formatCredits(refusal.spentMilli)} spent ${period}${reserved}${jobs}, ${formatCredits(left)} left; nothing was sent.`,
    {
      code: 'budget',
      hint: `Bound the run to fit (--max-credits ${formatCredits(left)} tells you before sending), or raise it: creators config set ${refusal.period}-budget <credits>.`,
    },
  );
}
