/**
 * Sandbox batch jobs. A job moves with the sandbox clock (plus an offset tests and scripts can push
 * forward through `/_sandbox/batch`): `validating`/`queued` for two seconds, then `processing` at
 * `rowsPerSecond`, charging each found row at the single-mode rate (0 for a row with no data), until
 * `finished` (a row is found when single enrichment would find it: results.ts); it pauses with `paused_insufficient_credits` when the balance cannot pay the next row,
 * and a value `__fail__` makes it `failed`. Resume (free) continues where it stopped.
 */
import { BATCH_ROUTE, CHARGED_MILLI, MODE_PRICE, routePath } from '../../contract/prices.js';
import { charge } from '../ledger.js';
import { slot, type SandboxState } from '../state.js';
import { rowData, type ResultContext, type RowOutcome } from './results.js';

export type JobStatus = 'validating' | 'queued' | 'processing' | 'finished' | 'failed' | 'paused_insufficient_credits';

export interface BatchJob {
  id: string;
  account: string;
  ctx: ResultContext;
  emailRequired: string | null;
  includeLookalikes: boolean | null;
  includeAudienceData: boolean | null;
  metadata: Record<string, unknown> | null;
  values: string[];
  outcomes: RowOutcome[];
  /** Each processed row's data (null when nothing was found), fixed when the row is processed. */
  data: (Record<string, unknown> | null)[];
  status: JobStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Batch-clock time up to which rows have been processed. */
  mark: number;
  successCount: number;
  failedCount: number;
  creditsMilli: number;
  statusMessage: string | null;
  /** The `__fail__` row has failed the job once; on resume it is counted as a failed row. */
  failTriggered: boolean;
}

/** Knobs of the batch feature (SandboxOptions, or `POST /_sandbox/batch`). */
export interface BatchSettings {
  rowsPerSecond: number;
  /** Seconds a new job spends validating/queued before rows are processed. */
  queueSeconds: number;
  /** Lifetime of a `/download/` URL in seconds. */
  downloadTtlSeconds: number;
  /** When false, `/download/` answers 404, like a deployment from before 2026-04-06. */
  downloadRoute: boolean;
  /** The file host cuts this many next downloads short (after `dropAfterBytes`, default half). */
  dropDownloads: number;
  dropAfterBytes: number | null;
  /** The file host honours `Range` requests. */
  rangeRequests: boolean;
}

export interface BatchWorld {
  jobs: Map<string, BatchJob>;
  settings: BatchSettings;
  /** Added to the sandbox clock, so tests can move batch time without waiting. */
  offsetMs: number;
  /** Origin of the file host serving download URLs (a second listener: another origin). */
  fileOrigin: string;
  /** Requests the file host saw (for tests: which headers reached it). */
  fileRequests: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
}

/** How long a new job stays `validating`/`queued` before rows are processed, by default. */
export const QUEUE_MS = 2000;

export function batchWorld(state: SandboxState): BatchWorld {
  return slot(state, 'batch', () => ({
    jobs: new Map<string, BatchJob>(),
    settings: {
      rowsPerSecond: 20,
      queueSeconds: QUEUE_MS / 1000,
      downloadTtlSeconds: 300,
      downloadRoute: true,
      dropDownloads: 0,
      dropAfterBytes: null,
      rangeRequests: true,
    },
    offsetMs: 0,
    fileOrigin: '',
    fileRequests: [],
  }));
}

/** Applies batch settings (any subset). */
export function configureBatch(
  state: SandboxState,
  patch: Partial<BatchSettings> & { advanceSeconds?: number },
): BatchWorld {
  const world = batchWorld(state);
  const { advanceSeconds, ...settings } = patch;
  for (const [k, v] of Object.entries(settings))
    if (v !== undefined) (world.settings as unknown as Record<string, unknown>)[k] = v;
  if (advanceSeconds) world.offsetMs += advanceSeconds * 1000;
  return world;
}

/** The batch clock: the sandbox clock plus the test-controlled offset. */
export function batchNow(state: SandboxState): number {
  return state.now() + batchWorld(state).offsetMs;
}

/** Single-mode price of one found row, in thousandths. */
export function rowPriceMilli(mode: string): number {
  const key = mode === 'raw' || mode === 'full' || mode === 'basic' ? MODE_PRICE[mode] : MODE_PRICE.advanced;
  return CHARGED_MILLI[key];
}

/** Moves a job forward to the batch clock's present: processes due rows, charges, pauses or finishes. */
export function advance(state: SandboxState, job: BatchJob): void {
  const now = batchNow(state);
  if (job.status === 'validating' || job.status === 'queued') {
    const queueMs = batchWorld(state).settings.queueSeconds * 1000;
    if (now < job.createdAt + queueMs) {
      job.status = now < job.createdAt + queueMs / 2 ? 'validating' : 'queued';
      return;
    }
    job.status = 'processing';
    job.startedAt = job.createdAt + queueMs;
    job.mark = job.startedAt;
  }
  if (job.status !== 'processing') return;
  const rps = Math.max(0.001, batchWorld(state).settings.rowsPerSecond);
  const due = Math.floor(((now - job.mark) * rps) / 1000);
  const price = rowPriceMilli(job.ctx.mode);
  let done = 0;
  let bill = 0;
  while (done < due && job.outcomes.length < job.values.length) {
    const value = job.values[job.outcomes.length] as string;
    if (value === '__fail__' && !job.failTriggered) {
      job.failTriggered = true;
      job.status = 'failed';
      job.statusMessage = `Row ${job.outcomes.length + 1} could not be processed.`;
      break;
    }
    const data = value === '__fail__' ? undefined : rowData(state, job.ctx, value, job.emailRequired);
    const found = data !== undefined;
    if (found && bill + price > state.ledger.balanceMilli) {
      job.status = 'paused_insufficient_credits';
      const left = job.values.length - job.outcomes.length;
      job.statusMessage = `Insufficient credits: ${left} rows left. Top up and resume the batch.`;
      break;
    }
    const outcome: RowOutcome = value === '__fail__' ? 'failed' : found ? 'success' : 'not_found';
    job.outcomes.push(outcome);
    job.data.push(data ?? null);
    if (outcome === 'success') {
      job.successCount += 1;
      bill += price;
    } else job.failedCount += 1;
    done += 1;
  }
  if (bill > 0) {
    charge(state, routePath(BATCH_ROUTE), bill, `batch ${job.id}: ${bill / price} rows`);
    job.creditsMilli += bill;
  }
  job.mark += (done * 1000) / rps;
  if (job.status === 'processing' && job.outcomes.length >= job.values.length) {
    job.status = 'finished';
    job.finishedAt = Math.round(job.mark);
    job.statusMessage = null;
  }
}

/** Continues a paused or failed job from where it stopped (free). Returns false when it cannot be resumed. */
export function resume(state: SandboxState, job: BatchJob): boolean {
  advance(state, job);
  if (job.status !== 'paused_insufficient_credits' && job.status !== 'failed') return false;
  job.status = 'processing';
  job.statusMessage = null;
  job.mark = batchNow(state);
  return true;
}

/** Results exist once a job finished, and (partially) while it is paused or failed. */
export function hasResults(job: BatchJob): boolean {
  return job.status === 'finished' || job.status === 'paused_insufficient_credits' || job.status === 'failed';
}
