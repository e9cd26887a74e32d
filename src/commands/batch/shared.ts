/** Pieces the batch verbs share: flag parsing, the upload loop, waiting with a spinner, the output format. */
import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { formatCredits } from '../../lib/cost.js';
import type { HttpClient } from '../../lib/http/client.js';
import { createBatch, getBatchStatus, type CreatedBatch } from '../../lib/api/batch.js';
import type { Extraction } from '../../lib/batch/extract.js';
import { multipartBody } from '../../lib/batch/multipart.js';
import { wireFields, type BatchJobOptions } from '../../lib/batch/options.js';
import { checkFinal, DEFAULT_INTERVAL_S, pollBatch } from '../../lib/batch/poll.js';
import { progressText, type BatchStatus } from '../../lib/batch/status.js';
import { createSpinner } from '../../lib/io/spinner.js';

/** Seconds from a flag, > 0; a usage error names the flag otherwise. */
export function parseSeconds(raw: unknown, flag: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const n = Number(String(raw).trim());
  if (String(raw).trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`Invalid ${flag} '${String(raw)}': expected a number of seconds greater than 0.`);
  }
  return n;
}

/** `--interval` in ms (default 30 s). */
export function intervalMs(opts: Record<string, unknown>): number {
  return (parseSeconds(opts.interval, '--interval') ?? DEFAULT_INTERVAL_S) * 1000;
}

/** For poll and run the global `--timeout` is the whole wait, in ms; undefined waits until the job ends. */
export function waitTimeoutMs(ctx: Context): number | undefined {
  const s = parseSeconds(ctx.globals.timeout, '--timeout');
  return s === undefined ? undefined : s * 1000;
}

/** Results are CSV or JSON: from `--json`/`--format`, else from the `-o` extension, else CSV. */
export function downloadFormat(ctx: Context, outputPath: string | undefined): 'csv' | 'json' {
  const asked = ctx.globals.json ? 'json' : ctx.globals.format;
  if (asked !== undefined) {
    if (asked === 'csv' || asked === 'json') return asked;
    throw new UsageError(`Batch results come as csv or json, not '${asked}'.`, { hint: 'Use --format csv or --json.' });
  }
  return outputPath && /\.json$/i.test(outputPath) ? 'json' : 'csv';
}

/** Tells the user what was read: rows kept, duplicates and blanks dropped, parts. */
export function reportExtraction(ctx: Context, source: string, x: Extraction): void {
  const extra = [
    x.duplicates > 0 ? `${x.duplicates} duplicate${x.duplicates === 1 ? '' : 's'} skipped` : '',
    x.blanks > 0 ? `${x.blanks} blank${x.blanks === 1 ? '' : 's'} removed` : '',
    x.parts.length > 1 ? `split into ${x.parts.length} batches of at most 10 MB` : '',
  ].filter(Boolean);
  if (x.guessedColumn) ctx.warn(`No ${x.kind} column recognised in ${source}: using the first column, '${x.column}'. Name the right one with --column.`);
  ctx.notice(`Read ${x.rows} unique ${x.kind === 'email' ? 'emails' : 'handles'} from column '${x.column}' of ${source}${extra.length ? ` (${extra.join(', ')})` : ''}.`);
}

/** The `--dry-run` picture of the upload: the text fields and what the file part holds. */
export function planBody(job: BatchJobOptions, x: Extraction, parts = x.parts): Record<string, unknown> {
  const rows = parts.reduce((n, p) => n + p.rows, 0);
  return {
    ...Object.fromEntries(wireFields(job)),
    file: `batch.csv (text/csv, column '${job.kind}', ${rows} rows${parts.length > 1 ? ` in ${parts.length} files` : ''})`,
  };
}

/** Uploads one part file and returns the create response. */
export async function uploadPart(http: HttpClient, job: BatchJobOptions, path: string): Promise<CreatedBatch> {
  const body = await multipartBody(wireFields(job), { field: 'file', filename: 'batch.csv', contentType: 'text/csv', path });
  return createBatch(http, body);
}

/**
 * Waits for batch `id` with a spinner (a progress line per reading on stderr when it is not a
 * terminal), and returns the final status; failed and paused raise their exit codes via checkFinal.
 */
export async function waitForBatch(
  ctx: Context,
  http: HttpClient,
  id: string,
  o: { intervalMs: number; timeoutMs?: number | undefined; again?: string | undefined; check?: boolean },
): Promise<BatchStatus> {
  const output = await ctx.output();
  const spinner = createSpinner(ctx.io, output, `Batch ${id}: waiting…`);
  let last: BatchStatus | undefined;
  let lastLine = '';
  try {
    const readings = pollBatch(() => getBatchStatus(http, id, 30_000), {
      id,
      intervalMs: o.intervalMs,
      timeoutMs: o.timeoutMs,
      now: ctx.deps.now,
      sleep: ctx.deps.sleep,
      signal: ctx.deps.signal,
      again: o.again,
    });
    for await (const status of readings) {
      last = status;
      const line = `Batch ${id}: ${progressText(status)}`;
      spinner.update(line);
      if (!ctx.io.stderrIsTTY && line !== lastLine) ctx.notice(line);
      lastLine = line;
    }
  } catch (err) {
    spinner.fail(last ? `Batch ${id}: ${progressText(last)}` : undefined);
    throw err;
  }
  const final = last as BatchStatus;
  if (final.phase === 'done') spinner.succeed(`Batch ${id}: ${progressText(final)}`);
  else spinner.fail(`Batch ${id}: ${progressText(final)}`);
  if (o.check !== false) checkFinal(final, o.again);
  return final;
}

/** `12.5 credits` from a status's credits_used. */
export function creditsText(s: BatchStatus): string {
  return s.credits_used === null ? 'unknown credits' : `${formatCredits(Math.round(s.credits_used * 1000))} credits`;
}

/** The status record as printed: the API's fields, our normalised numbers, without the internal phase. */
export function printable(s: BatchStatus): Record<string, unknown> {
  const { phase: _phase, ...rest } = s;
  return rest;
}
