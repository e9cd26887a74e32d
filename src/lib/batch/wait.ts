/**
 * Waiting for a batch job the way `batch poll` and `batch run` show it: the poll loop of poll.ts
 * behind a spinner on a terminal (a progress line per change on stderr otherwise), plus the reading
 * of the wait flags. `--max-wait` is the whole wait; `--timeout` is the per-request timeout, as
 * everywhere else, except for one release where it still stands in for `--max-wait` (deprecated).
 */
import { UsageError } from '../errors.js';
import { getBatchStatus } from '../api/batch.js';
import type { HttpClient } from '../http/client.js';
import type { Spinner } from '../io/spinner.js';
import type { Notices } from '../io/terminal.js';
import type { ColumnSpec } from '../output/types.js';
import { checkFinal, DEFAULT_INTERVAL_S, pollBatch } from './poll.js';
import { progressText, type BatchStatus } from './status.js';
import { creditCount } from '../output/humanize.js';

/** The columns of a status record on a terminal (`batch status`, `batch poll`). */
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

/** What printing a wait needs from the terminal: notices, a spinner, and whether stderr is one. */
export interface WaitTerminal extends Notices {
  readonly io: { readonly stderrIsTTY: boolean };
  spinner(text: string): Spinner;
}

export interface WaitPorts {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  term: WaitTerminal;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
}

/** How long to wait and how often to look. */
export interface WaitSettings {
  intervalMs: number;
  /** The whole wait (`--max-wait`); undefined waits until the job ends. */
  maxWaitMs?: number | undefined;
  /** Timeout of each status read; undefined leaves it to the HTTP client (`--timeout`, default 30 s). */
  readTimeoutMs?: number | undefined;
}

/** The wait flags as typed: the verb's own `--interval`/`--max-wait`, and the global `--timeout`. */
export interface WaitFlags {
  interval?: string | undefined;
  maxWait?: string | undefined;
  /** The global `--timeout` (commander gives it to the root wherever it is typed). */
  timeout?: string | undefined;
}

/** Seconds from a flag, > 0; a usage error names the flag otherwise. */
export function parseSeconds(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`Invalid ${flag} '${raw}': expected a number of seconds greater than 0.`);
  }
  return n;
}

/**
 * Reads the wait flags of `batch <verb>`. `--max-wait` is the whole wait, and then `--timeout` is only
 * the per-request timeout. Without `--max-wait`, a `--timeout` is still taken as the whole wait (what
 * it meant here before `--max-wait` existed), with a one-line deprecation warning; its status reads
 * keep their 30 s timeout, as then.
 */
export function waitSettings(flags: WaitFlags, verb: string, notices: Pick<Notices, 'warn'>): WaitSettings {
  const intervalMs = (parseSeconds(flags.interval, '--interval') ?? DEFAULT_INTERVAL_S) * 1000;
  const maxWait = parseSeconds(flags.maxWait, '--max-wait');
  if (maxWait !== undefined) return { intervalMs, maxWaitMs: maxWait * 1000 };
  const legacy = parseSeconds(flags.timeout, '--timeout');
  if (legacy === undefined) return { intervalMs };
  notices.warn(
    `--timeout as the whole wait of \`creators batch ${verb}\` is deprecated: use --max-wait ${flags.timeout?.trim()} ` +
      '(--timeout is the per-request timeout, and will mean only that in the next release).',
  );
  return { intervalMs, maxWaitMs: legacy * 1000, readTimeoutMs: 30_000 };
}

export interface WaitOptions extends WaitSettings {
  /** How to pick the job up again, for the messages of a timeout or Ctrl-C. */
  again?: string | undefined;
  /** A command that resumes a paused job and picks it up (the same `batch run`), for the paused message. */
  rerun?: string | undefined;
  /** False: return a failed or paused final status instead of throwing its exit code. */
  check?: boolean;
  /** Told every reading (what the job has used so far, for a stop report). */
  onStatus?: ((status: BatchStatus) => void) | undefined;
}

/**
 * Waits for batch `id` with a spinner (a progress line per reading on stderr when it is not a
 * terminal), and returns the final status; failed and paused raise their exit codes via checkFinal
 * unless `check` is false.
 */
export async function waitForBatch(ports: WaitPorts, id: string, o: WaitOptions): Promise<BatchStatus> {
  const { term } = ports;
  const spinner = term.spinner(`Batch ${id}: waiting…`);
  let last: BatchStatus | undefined;
  let lastLine = '';
  try {
    const readings = pollBatch(async () => getBatchStatus(await ports.http(), id, o.readTimeoutMs), {
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
      if (!term.io.stderrIsTTY && line !== lastLine) term.notice(line);
      lastLine = line;
    }
  } catch (err) {
    spinner.fail(last ? `Batch ${id}: ${progressText(last)}` : undefined);
    throw err;
  }
  // pollBatch returns only after yielding a final reading.
  const final = last as BatchStatus;
  if (final.phase === 'done') spinner.succeed(`Batch ${id}: ${progressText(final)}`);
  else spinner.fail(`Batch ${id}: ${progressText(final)}`);
  if (o.check !== false) checkFinal(final, o.rerun);
  return final;
}

/** `12.5 credits` from a status's credits_used. */
export function creditsText(s: BatchStatus): string {
  return s.credits_used === null ? 'unknown credits' : creditCount(s.credits_used * 1000);
}

/** The status record as printed: the API's fields, our normalised numbers, without the internal phase. */
export function printable(s: BatchStatus): Record<string, unknown> {
  const { phase: _phase, ...rest } = s;
  return rest;
}
