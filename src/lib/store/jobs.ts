/**
 * A batch job's charge in the spend log. A job charges its rows on the server long after its create, so the
 * charge is read from the job's own figures (`credits_used`) whenever a status shows it has stopped charging
 * (finished, failed, paused): each reading logs what the log does not hold yet for that job, named by job id
 * and total, so reading the same job again (`batch status`, `poll`, `run`, a re-run) logs nothing twice.
 */
import { BATCH_ROUTE } from '../../contract/prices.js';
import { batchRowPriceMilli, type BatchPriceMode } from '../api/batch.js';
import type { BatchStatus } from '../batch/status.js';
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
  if (raw === null) return { loggedMilli: 0 };
  const usedMilli = Math.round(raw * 1000);
  const most = mostForRows(status.total_rows) ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(raw) || usedMilli < 0 || usedMilli > most) return { loggedMilli: 0, refused: String(raw) };
  const success = typeof status.success_count === 'number' ? status.success_count : (status.processed_rows ?? 0);
  const entry = memory.spendEntry(BATCH_ROUTE, typeof status.platform === 'string' ? status.platform : undefined, 0, 0, now);
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
  if (usedMilli <= loggedMilli) return { loggedMilli: 0 };
  const creditsMilli = usedMilli - loggedMilli;
  await memory.store.logSpend({ ...entry, creditsMilli, records: Math.max(0, success - loggedRows), origin: `${origin(status.batch_id)}${usedMilli}` });
  memory.spentMilli += creditsMilli;
  return { loggedMilli: creditsMilli };
}
