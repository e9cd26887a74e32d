/**
 * A batch job's charge in the spend log. A job charges its rows on the server long after its create, so the
 * charge is read from the job's own figures (`credits_used`) whenever a status shows it has stopped charging
 * (finished, failed, paused): each reading logs what the log does not hold yet for that job, named by job id
 * and total, so reading the same job again (`batch status`, `poll`, `run`, a re-run) logs nothing twice.
 *
 * Until a job is seen finished, budgets hold its worst case (rows x price) less what it has been logged to
 * cost: its create logs a free marker `batch:<id>:open:<worst>`, its finish `batch:<id>:done`, both in the
 * spend log, so every process and machine sharing the store sees the jobs in flight.
 */
import { BATCH_ROUTE } from '../../contract/prices.js';
import { batchRowPriceMilli, type BatchPriceMode } from '../api/batch.js';
import type { BatchStatus } from '../api/batch-status.js';
import type { PurchaseMemoryImpl } from './memory.js';

const MODES: readonly BatchPriceMode[] = ['raw', 'profile', 'analytics', 'full', 'basic', 'advanced'];

/** Old entries are not read: a job's charges are logged within days of its start. */
const LOOK_BACK_MS = 90 * 86_400_000;

export interface JobCharge {
  /** Thousandths newly logged (0 when the log held them already). */
  loggedMilli: number;
  /** The job's `credits_used` when it was not believed (negative, not a number, more than its rows can cost). */
  refused?: string | undefined;
}

function origin(id: string): string {
  return `batch:${id}:`;
}

/** The most a job of `rows` rows can charge: each row at the dearest mode's price. */
function mostForRows(rows: number | null): number | undefined {
  if (rows === null || !Number.isFinite(rows) || rows < 0) return undefined;
  return rows * Math.max(...MODES.map(batchRowPriceMilli));
}

export async function logJobCharge(memory: PurchaseMemoryImpl, status: BatchStatus, now: number): Promise<JobCharge> {
  if (status.phase === 'pending') return { loggedMilli: 0 };
  const raw = status.credits_used;
  const entry = memory.spendEntry(
    BATCH_ROUTE,
    typeof status.platform === 'string' ? status.platform : undefined,
    0,
    0,
    now,
  );
  if (raw === null) {
    if (status.phase === 'done') await memory.store.logSpend({ ...entry, origin: `${origin(status.batch_id)}done` });
    return { loggedMilli: 0 };
  }
  const usedMilli = Math.round(raw * 1000);
  const most = mostForRows(status.total_rows) ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(raw) || usedMilli < 0 || usedMilli > most) return { loggedMilli: 0, refused: String(raw) };
  const success = typeof status.success_count === 'number' ? status.success_count : (status.processed_rows ?? 0);
  const started = typeof status.started_at === 'string' ? Date.parse(status.started_at) : NaN;
  const since = Number.isFinite(started) ? Math.min(started, now) - 86_400_000 : now - LOOK_BACK_MS;
  let loggedMilli = 0;
  let loggedRows = 0;
  for await (const e of memory.store.spend({ baseUrl: entry.baseUrl, since })) {
    if (e.route === BATCH_ROUTE && e.origin?.startsWith(origin(status.batch_id))) {
      loggedMilli += e.creditsMilli;
      loggedRows += e.records;
    }
  }
  const creditsMilli = Math.max(0, usedMilli - loggedMilli);
  if (creditsMilli > 0) {
    await memory.store.logSpend({
      ...entry,
      creditsMilli,
      records: Math.max(0, success - loggedRows),
      origin: `${origin(status.batch_id)}${usedMilli}`,
    });
    memory.spentMilli += creditsMilli;
  }
  // Finished: it charges nothing more, so budgets stop holding its worst case.
  if (status.phase === 'done') await memory.store.logSpend({ ...entry, origin: `${origin(status.batch_id)}done` });
  return { loggedMilli: creditsMilli };
}

/** Logs a new job's worst case (free) so budgets hold it until the job is seen finished. */
export async function noteJobOpen(
  memory: PurchaseMemoryImpl,
  job: { id: string; worstMilli: number; platform?: string | undefined },
  now: number,
): Promise<void> {
  const entry = memory.spendEntry(BATCH_ROUTE, job.platform, 0, 0, now);
  await memory.store.logSpend({ ...entry, origin: `${origin(job.id)}open:${Math.max(0, Math.round(job.worstMilli))}` });
}

const OPEN = /^batch:(.+):open:(\d+)$/;
const DONE = /^batch:(.+):done$/;
const CHARGE = /^batch:(.+):\d+$/;

/**
 * What jobs opened since `since` by this profile may still charge: each job's worst case less what it has been
 * logged to cost, for the jobs not seen finished (what a budget holds for them).
 */
export async function openJobsMilli(
  memory: PurchaseMemoryImpl,
  profile: string,
  since: number,
): Promise<{ milli: number; jobs: string[] }> {
  const worst = new Map<string, number>();
  const logged = new Map<string, number>();
  const done = new Set<string>();
  for await (const e of memory.store.spend({ profile, since })) {
    if (e.route !== BATCH_ROUTE || !e.origin) continue;
    let m: RegExpExecArray | null;
    if ((m = OPEN.exec(e.origin))) worst.set(m[1] as string, Number(m[2]));
    else if ((m = DONE.exec(e.origin))) done.add(m[1] as string);
    else if ((m = CHARGE.exec(e.origin)))
      logged.set(m[1] as string, (logged.get(m[1] as string) ?? 0) + e.creditsMilli);
  }
  let milli = 0;
  const jobs: string[] = [];
  for (const [id, w] of worst) {
    if (done.has(id)) continue;
    const left = Math.max(0, w - (logged.get(id) ?? 0));
    if (left === 0) continue;
    milli += left;
    jobs.push(id);
  }
  return { milli, jobs };
}
