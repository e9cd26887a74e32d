/**
 * A bulk enrichment run, shared by `enrich handle` and `enrich email`: source -> money gate ->
 * concurrent paced requests -> rows written in input order -> summary and exit status.
 */
import { getCredits } from '../api/account.js';
import type { EnrichOutcome } from '../api/enrichment.js';
import type { Context } from '../../app/context.js';
import { formatCredits } from '../cost.js';
import { guardCost } from '../../app/legacy.js';
import { AuthError, CliError, CreditsError, InterruptedError, PartialFailure, RateLimitError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { buildUrl } from '../http/url.js';
import { printItem, type ColumnSpec } from '../output/index.js';
import { ProgressLine } from './progress.js';
import { nestedRecord, printOutcomes, type RowOutcome } from './records.js';
import { OrderedRunner } from './runner.js';
import { openBulkSource, type SourceOptions } from './source.js';

export interface EnrichJob {
  /** `enrich handle`, for messages and the progress line. */
  label: string;
  kind: 'handle' | 'email';
  /** API path of the route, for the dry-run plan. */
  path: string;
  priceMilli: number;
  /** Cleans one value; throws a UsageError for a value that must not be sent (the row fails, nothing is charged). */
  clean: (value: string) => string;
  body: (value: string) => Record<string, unknown>;
  send: (http: HttpClient, value: string) => Promise<EnrichOutcome>;
  resultColumns: string[];
  tableColumns: (valueColumn: string) => ColumnSpec[];
}

export interface BulkOptions extends Omit<SourceOptions, 'kind' | 'needCount'> {
  concurrency: number;
}

/** Errors that would fail every later row too: the run stops (after writing what is done). */
function isFatal(err: unknown): boolean {
  return err instanceof AuthError || err instanceof CreditsError || err instanceof RateLimitError || err instanceof InterruptedError;
}

function message(err: unknown): string {
  if (err instanceof CliError) return err.hint && err.status !== undefined ? `${err.message} ${err.hint}` : err.message;
  return err instanceof Error ? err.message : String(err);
}

async function enrichOne(ctx: Context, job: EnrichJob, http: HttpClient, cells: string[], valueIndex: number): Promise<RowOutcome> {
  const raw = cells[valueIndex] ?? '';
  if (raw.trim() === '') return { cells, status: 'skipped', error: `empty ${job.kind}`, creditsMilli: 0, result: null };
  let value: string;
  try {
    value = job.clean(raw);
  } catch (err) {
    return { cells, status: 'error', error: message(err), creditsMilli: 0, result: null };
  }
  try {
    const outcome = await job.send(http, value);
    return { cells, status: outcome.status, error: null, creditsMilli: Math.round(outcome.creditsCost * 1000), result: outcome.result };
  } catch (err) {
    if (isFatal(err) || ctx.deps.signal?.aborted) throw err;
    return { cells, status: 'error', error: message(err), creditsMilli: 0, result: null };
  }
}

/** Runs the job over the values given as arguments or through `--input`, printing rows as they complete. */
export async function runEnrichment(ctx: Context, job: EnrichJob, o: BulkOptions): Promise<void> {
  const budgetSet = ctx.globals.maxCredits !== undefined || ctx.deps.env.CREATORS_MAX_CREDITS !== undefined || (await ctx.setting('max-credits')) !== undefined;
  const source = await openBulkSource(ctx, { ...o, kind: job.kind, needCount: ctx.dryRun || budgetSet });
  try {
    const http = await ctx.http();
    const single = !source.fromFile && o.values.length === 1;
    // One value: a bad one is the command's usage error, before the money gate.
    if (single) job.clean(o.values[0] as string);
    const example = source.firstValue !== undefined ? safeBody(job, source.firstValue) : undefined;
    const price = formatCredits(job.priceMilli);
    const plan = {
      method: 'POST',
      url: buildUrl(http.baseUrl, job.path).href,
      body: example,
      worstCaseMilli: source.count === undefined ? null : source.count * job.priceMilli,
      costBasis:
        source.count === undefined
          ? `row count unknown (standard input; pass --max-rows to bound it) x ${price}`
          : `${source.count} ${job.kind}${source.count === 1 ? '' : 's'} x ${price}${o.input === '-' && o.maxRows !== undefined ? ' (at most, --max-rows)' : ''}`,
    };
    if (!(await guardCost(ctx, plan))) return;
    if (single) return await runSingle(ctx, job, http, o.values[0] as string);

    let output = await ctx.output();
    // CSV in, CSV out: with --input the default (not asked for) format is csv.
    if (source.fromFile && !output.formatExplicit) output = { ...output, format: 'csv' };
    const counts = { done: 0, failed: 0, notFound: 0, skipped: 0, creditsMilli: 0 };
    // Rows streaming to the same terminal would be glued to the progress line: they show progress themselves.
    const rowsToTerminal = ctx.io.stdoutIsTTY && !output.outputPath && output.format !== 'table';
    const progress = new ProgressLine(ctx.io, ctx.io.stderrIsTTY && !ctx.quiet && !rowsToTerminal, job.label, source.count, ctx.deps.now);
    const runner = new OrderedRunner<string[], RowOutcome>({
      items: source.rows,
      concurrency: o.concurrency,
      signal: ctx.deps.signal,
      work: async (cells) => {
        const row = await enrichOne(ctx, job, http, cells, source.valueIndex);
        counts.done++;
        if (row.status === 'error') counts.failed++;
        if (row.status === 'not_found') counts.notFound++;
        if (row.status === 'skipped') counts.skipped++;
        counts.creditsMilli += row.creditsMilli;
        progress.update(counts);
        return row;
      },
    });
    const valueColumn = source.header[source.valueIndex] ?? job.kind;
    // A terminal table is drawn once every row is in: clear the progress line before that.
    const rowsThenClear = (async function* () {
      yield* runner.run();
      progress.finish();
    })();
    let written: number;
    try {
      written = await printOutcomes(ctx.io, output, source.header, job.resultColumns, job.tableColumns(valueColumn), rowsThenClear);
    } finally {
      progress.finish();
    }
    await summary(ctx, http, counts, written);
    if (runner.stopped !== undefined) {
      if (runner.stopped instanceof InterruptedError) {
        throw new InterruptedError(`Interrupted: ${written} row${written === 1 ? '' : 's'} written, in input order; the rest were not.`, {
          hint: runner.dropped > 0 ? 'A request in flight when you pressed Ctrl-C may still have been charged; `creators credits` shows the balance.' : undefined,
        });
      }
      throw runner.stopped;
    }
    if (counts.failed > 0) {
      throw new PartialFailure(`${counts.failed} of ${counts.done} rows failed; see the status and error columns.`);
    }
  } finally {
    await source.cleanup();
  }
}

function safeBody(job: EnrichJob, value: string): Record<string, unknown> | undefined {
  try {
    return job.body(job.clean(value));
  } catch {
    return undefined;
  }
}

/** One value as an argument: errors are the command's errors (their own exit codes), the record is printed as an object. */
async function runSingle(ctx: Context, job: EnrichJob, http: HttpClient, raw: string): Promise<void> {
  const value = job.clean(raw);
  // Output settings first: an -o that cannot be written fails before anything is paid for.
  const output = await ctx.output();
  const outcome = await job.send(http, value);
  const row: RowOutcome = { cells: [raw], status: outcome.status, error: null, creditsMilli: Math.round(outcome.creditsCost * 1000), result: outcome.result };
  if (outcome.status === 'not_found') ctx.notice(`No data found for '${value}' (not charged).`);
  const record = nestedRecord([job.kind], row);
  if (output.format === 'csv' || output.format === 'tsv') {
    await printOutcomes(ctx.io, output, [job.kind], job.resultColumns, [], [row]);
  } else if (output.format === 'table') {
    await printItem(ctx.io, output, record, job.tableColumns(job.kind).filter((c) => c.path !== 'error'));
  } else {
    await printItem(ctx.io, output, record);
  }
  await summary(ctx, http, { done: 1, failed: 0, notFound: outcome.status === 'not_found' ? 1 : 0, skipped: 0, creditsMilli: row.creditsMilli }, 1);
}

/** The one-line summary after a run that may have spent credits: on a terminal only. */
async function summary(ctx: Context, http: HttpClient, c: { done: number; failed: number; notFound: number; skipped: number; creditsMilli: number }, written: number): Promise<void> {
  if (!ctx.io.stderrIsTTY || ctx.quiet) return;
  let left = '';
  if (c.creditsMilli > 0) {
    const credits = await getCredits(http).catch(() => undefined);
    if (credits?.credits_available !== null && credits?.credits_available !== undefined) left = `, ${credits.credits_available} left`;
  }
  const ok = c.done - c.failed - c.notFound - c.skipped;
  const skipped = c.skipped > 0 ? `, ${c.skipped} blank` : '';
  ctx.notice(`${written} row${written === 1 ? '' : 's'}: ${ok} enriched, ${c.notFound} not found${skipped}, ${c.failed} failed; ${formatCredits(c.creditsMilli)} credits spent${left}.`);
}
