/** `--max-wait` is the whole wait; `--timeout` is only the per-request timeout. */
import { getBatchStatus } from '../api/batch.js';
import type { HttpClient } from '../http/client.js';
import type { Spinner } from '../io/spinner.js';
import type { Notices } from '../io/terminal.js';
import type { ColumnSpec } from '../output/types.js';
import { checkFinal, DEFAULT_INTERVAL_S, pollBatch } from './poll.js';
import { progressText } from './status.js';
import { type BatchStatus } from '../api/batch-status.js';
import { creditCount } from '../words.js';

export const STATUS_COLUMNS: ColumnSpec[] = [
  { path: 'batch_id', header: 'Batch', keep: true },
  { path: 'status', header: 'Status', whole: true, priority: 1 },
  { path: 'processed_rows', header: 'Processed', kind: 'number' },
  { path: 'total_rows', header: 'Total rows', kind: 'number' },
  { path: 'success_count', header: 'Enriched', kind: 'number' },
  { path: 'failed_count', header: 'No data / failed', kind: 'number' },
  { path: 'credits_used', header: 'Credits used', kind: 'number' },
  { path: 'started_at', header: 'Started', kind: 'date' },
  { path: 'estimated_completion', header: 'Estimated completion', kind: 'date' },
  { path: 'status_message', header: 'Message', kind: 'text' },
];

export interface WaitTerminal extends Notices {
  readonly stderrIsTTY: boolean;
  spinner(text: string): Spinner;
}

export interface WaitPorts {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  term: WaitTerminal;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  /** Told the final reading: a job that has stopped charging enters the spend log (its own figures). */
  charged?: ((status: BatchStatus) => Promise<void>) | undefined;
}

export interface WaitSettings {
  intervalMs: number;
  maxWaitMs?: number | undefined;
}

export interface WaitFlags {
  interval?: number | undefined;
  maxWait?: number | undefined;
}

export function waitSettings(flags: WaitFlags): WaitSettings {
  const intervalMs = (flags.interval ?? DEFAULT_INTERVAL_S) * 1000;
  return flags.maxWait === undefined ? { intervalMs } : { intervalMs, maxWaitMs: flags.maxWait * 1000 };
}

export interface WaitOptions extends WaitSettings {
  again?: string | undefined;
  /** A command that resumes a paused job and picks it up (the same `batch run`), for the paused message. */
  rerun?: string | undefined;
  /** False: return a failed or paused final status instead of throwing its exit code. */
  check?: boolean;
  /** Told every reading (what the job has used so far, for a stop report). */
  onStatus?: ((status: BatchStatus) => void) | undefined;
}

export async function waitForBatch(ports: WaitPorts, id: string, o: WaitOptions): Promise<BatchStatus> {
  const { term } = ports;
  const spinner = term.spinner(`Batch ${id}: waiting…`);
  let last: BatchStatus | undefined;
  let lastLine = '';
  try {
    const readings = pollBatch(async () => getBatchStatus(await ports.http(), id), {
      id,
      intervalMs: o.intervalMs,
      timeoutMs: o.maxWaitMs,
      now: ports.now,
      sleep: ports.sleep,
      signal: ports.signal,
      again: o.again,
    });
    for await (const status of readings) {
      last = status;
      o.onStatus?.(status);
      const line = `Batch ${id}: ${progressText(status)}`;
      spinner.update(line);
      if (!term.stderrIsTTY && line !== lastLine) term.notice(line);
      lastLine = line;
    }
  } catch (err) {
    spinner.fail(last ? `Batch ${id}: ${progressText(last)}` : undefined);
    throw err;
  }
  // pollBatch returns only after yielding a final reading.
  const final = last as BatchStatus;
  await ports.charged?.(final);
  if (final.phase === 'done') spinner.succeed(`Batch ${id}: ${progressText(final)}`);
  else spinner.fail(`Batch ${id}: ${progressText(final)}`);
  if (o.check !== false) checkFinal(final, o.rerun);
  return final;
}

export function creditsText(s: BatchStatus): string {
  return s.credits_used === null ? 'unknown credits' : creditCount(s.credits_used * 1000);
}

export function printable(s: BatchStatus): Record<string, unknown> {
  const { phase: _phase, ...rest } = s;
  return rest;
}
