/**
 * A bulk enrichment run, shared by `enrich handle` and `enrich email`: source -> money gate ->
 * concurrent paced requests -> rows written in input order -> summary and exit status. It takes
 * ports (the HTTP client, the terminal object, output settings, the money gate, a clock and the
 * interrupt signal), never the Context: the command assembles them.
 */
import { getCredits } from '../api/account.js';
import type { EnrichOutcome } from '../api/enrichment.js';
import type { Plan } from '../api/plan.js';
import { formatCredits } from '../cost.js';
import { AuthError, CliError, CreditsError, InterruptedError, PartialFailure, RateLimitError, UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Terminal } from '../io/terminal.js';
import { parseIntegerOption } from '../options.js';
import { printItem, type ColumnSpec, type OutputSettings } from '../output/index.js';
import { ProgressLine } from './progress.js';
import { nestedRecord, printOutcomes, type RowOutcome } from './records.js';
import { OrderedRunner } from './runner.js';
import { openBulkSource, type SourceOptions } from './source.js';

export interface EnrichJob {
  /** `enrich handle`, for messages and the progress line. */
  label: string;
  kind: 'handle' | 'email';
  /** Cleans one value; throws a UsageError for a value that must not be sent (the row fails, nothing is charged). */
  clean: (value: string) => string;
  /** The plan of one request for a cleaned value (route, body, worst-case price). */
  plan: (value: string) => Plan;
  send: (http: HttpClient, value: string) => Promise<EnrichOutcome>;
  resultColumns: string[];
  tableColumns: (valueColumn: string) => ColumnSpec[];
}

export interface BulkOptions extends Omit<SourceOptions, 'kind' | 'needCount'> {
  concurrency: number;
}

/** What a run uses of the outside world. */
export interface EnrichPorts {
  /** The terminal object: input (cwd, stdin), notices and warnings, TTY-ness, `--quiet`. */
  term: Terminal;
  /**
   * The HTTP client and the output settings, asked for when the run reaches them (after the input is
   * opened and checked), so a bad input file is reported before a bad `--timeout` or `-o`, as always.
   */
  http(): Promise<HttpClient>;
  output(): Promise<OutputSettings>;
  /** The money gate (`--max-credits`, `--dry-run`, the confirmation); true when the plan may be sent. */
  gate(plan: Plan): Promise<boolean>;
  /** The worst case must be known before sending (a dry run or a `--max-credits` budget): stdin is then counted first. */
  mustCount: boolean;
  now(): number;
  signal?: AbortSignal | undefined;
}

/** The bulk flags of `enrich handle` and `enrich email` as typed by the user, checked before anything is read or sent. */
export function parseBulkOptions(values: string[], flags: { input: string | undefined; column: string | undefined; concurrency: string | undefined; maxRows: string | undefined }): BulkOptions {
  const concurrency = parseIntegerOption(flags.concurrency, '--concurrency', 1) ?? 4;
  if (concurrency > 16) throw new UsageError(`Invalid --concurrency '${String(flags.concurrency)}': at most 16.`);
  return { values, input: flags.input, column: flags.column, concurrency, maxRows: parseIntegerOption(flags.maxRows, '--max-rows', 1) };
}

/** Errors that would fail every later row too: the run stops (after writing what is done). */
function isFatal(err: unknown): boolean {
  return err instanceof AuthError || err instanceof CreditsError || err instanceof RateLimitError || err instanceof InterruptedError;
}

function message(err: unknown): string {
  if (err instanceof CliError) return err.hint && err.status !== undefined ? `${err.message} ${err.hint}` : err.message;
  return err instanceof Error ? err.message : String(err);
}

async function enrichOne(ports: EnrichPorts, job: EnrichJob, http: HttpClient, cells: string[], valueIndex: number): Promise<RowOutcome> {
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
    if (isFatal(err) || ports.signal?.aborted) throw err;
    return { cells, status: 'error', error: message(err), creditsMilli: 0, result: null };
  }
}

/** Runs the job over the values given as arguments or through `--input`, printing rows as they complete. */
export async function runEnrichment(ports: EnrichPorts, job: EnrichJob, o: BulkOptions): Promise<void> {
  const { term } = ports;
  const source = await openBulkSource(term, { ...o, kind: job.kind, needCount: ports.mustCount });
  try {
    const http = await ports.http();
    const single = !source.fromFile && o.values.length === 1;
    // One value: a bad one is the command's usage error, before the money gate.
    if (single) job.clean(o.values[0] as string);
    if (!(await ports.gate(runPlan(job, source.firstValue, source.count, o)))) return;
    if (single) return await runSingle(ports, job, http, o.values[0] as string);

    let output = await ports.output();
    // CSV in, CSV out: with --input the default (not asked for) format is csv.
    if (source.fromFile && !output.formatExplicit) output = { ...output, format: 'csv' };
    const counts = { done: 0, failed: 0, notFound: 0, skipped: 0, creditsMilli: 0 };
    // Rows streaming to the same terminal would be glued to the progress line: they show progress themselves.
    const rowsToTerminal = term.io.stdoutIsTTY && !output.outputPath && output.format !== 'table';
    const progress = new ProgressLine(term.io, term.io.stderrIsTTY && !term.quiet && !rowsToTerminal, job.label, source.count, ports.now);
    const runner = new OrderedRunner<string[], RowOutcome>({
      items: source.rows,
      concurrency: o.concurrency,
      signal: ports.signal,
      work: async (cells) => {
        const row = await enrichOne(ports, job, http, cells, source.valueIndex);
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
      written = await printOutcomes(term.io, output, source.header, job.resultColumns, job.tableColumns(valueColumn), rowsThenClear);
    } finally {
      progress.finish();
    }
    await summary(term, http, counts, written);
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

/**
 * The plan of the whole run: the route and an example body (the first value; none when it is blank
 * or invalid), at `values x price`; unknown for stdin that is not counted first.
 */
function runPlan(job: EnrichJob, firstValue: string | undefined, count: number | undefined, o: BulkOptions): Plan {
  let example: Plan | undefined;
  try {
    if (firstValue !== undefined) example = job.plan(job.clean(firstValue));
  } catch {
    example = undefined;
  }
  // The route and price do not depend on the value; the body of a placeholder is not shown.
  const unit = example ?? { ...job.plan(''), body: undefined };
  const priceMilli = unit.worstCaseMilli ?? 0;
  const price = formatCredits(priceMilli);
  return {
    ...unit,
    worstCaseMilli: count === undefined ? null : count * priceMilli,
    costBasis:
      count === undefined
        ? `row count unknown (standard input; pass --max-rows to bound it) x ${price}`
        : `${count} ${job.kind}${count === 1 ? '' : 's'} x ${price}${o.input === '-' && o.maxRows !== undefined ? ' (at most, --max-rows)' : ''}`,
  };
}

/** One value as an argument: errors are the command's errors (their own exit codes), the record is printed as an object. */
async function runSingle(ports: EnrichPorts, job: EnrichJob, http: HttpClient, raw: string): Promise<void> {
  const { term } = ports;
  const value = job.clean(raw);
  // Output settings first: an -o that cannot be written fails before anything is paid for.
  const output = await ports.output();
  const outcome = await job.send(http, value);
  const row: RowOutcome = { cells: [raw], status: outcome.status, error: null, creditsMilli: Math.round(outcome.creditsCost * 1000), result: outcome.result };
  if (outcome.status === 'not_found') term.notice(`No data found for '${value}' (not charged).`);
  const record = nestedRecord([job.kind], row);
  if (output.format === 'csv' || output.format === 'tsv') {
    await printOutcomes(term.io, output, [job.kind], job.resultColumns, [], [row]);
  } else if (output.format === 'table') {
    await printItem(term.io, output, record, job.tableColumns(job.kind).filter((c) => c.path !== 'error'));
  } else {
    await printItem(term.io, output, record);
  }
  await summary(term, http, { done: 1, failed: 0, notFound: outcome.status === 'not_found' ? 1 : 0, skipped: 0, creditsMilli: row.creditsMilli }, 1);
}

/** The one-line summary after a run that may have spent credits: on a terminal only. */
async function summary(term: Terminal, http: HttpClient, c: { done: number; failed: number; notFound: number; skipped: number; creditsMilli: number }, written: number): Promise<void> {
  if (!term.io.stderrIsTTY || term.quiet) return;
  let left = '';
  if (c.creditsMilli > 0) {
    const credits = await getCredits(http).catch(() => undefined);
    if (credits?.credits_available !== null && credits?.credits_available !== undefined) left = `, ${credits.credits_available} left`;
  }
  const ok = c.done - c.failed - c.notFound - c.skipped;
  const skipped = c.skipped > 0 ? `, ${c.skipped} blank` : '';
  term.notice(`${written} row${written === 1 ? '' : 's'}: ${ok} enriched, ${c.notFound} not found${skipped}, ${c.failed} failed; ${formatCredits(c.creditsMilli)} credits spent${left}.`);
}
