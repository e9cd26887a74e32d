/**
 * Each paid answer is committed to the store by the HTTP client before its row is written, so a re-run after
 * any stop buys only what the store does not hold, whatever the `-o` path or the input's name.
 */
import path from 'node:path';
import { getCredits } from '../api/account.js';
import { holdHeapSize } from '../io/heap.js';
import type { EnrichTextOutcome } from '../api/enrichment.js';
import type { Plan } from '../api/plan.js';
import { formatCredits } from '../words.js';
import {
  AuthError,
  CliError,
  CreditsError,
  InterruptedError,
  PartialFailure,
  RateLimitError,
  withStopReport,
} from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Terminal } from '../io/terminal.js';
import { creatorCard } from '../output/card.js';
import { OutputFileError, outputFileCliError, type ColumnSpec, type OutputSettings } from '../output/index.js';
import { printPaidItem } from '../output/paid.js';
import { concurrencyFor } from './concurrency.js';
import { progressText } from './progress.js';
import { nestedRecord, printOutcomeBatches, printOutcomes, type RowOutcome } from './records.js';
import { durationText } from '../output/humanize.js';
import { OrderedRunner } from './runner.js';
import { openBulkSource, type BulkNames, type BulkSource, type SourceOptions } from './source.js';
import { countText, creditCount, plural } from '../words.js';

export interface EnrichJob {
  label: string;
  kind: 'handle' | 'email';
  /** Cleans one value; throws a UsageError for a value that must not be sent (the row fails, nothing is charged). */
  clean: (value: string) => string;
  plan: (value: string) => Plan;
  send: (http: HttpClient, value: string) => Promise<EnrichTextOutcome>;
  request: Record<string, unknown>;
  resultColumns: string[];
  tableColumns: (valueColumn: string) => ColumnSpec[];
  platform?: string | undefined;
}

export interface BulkOptions extends Omit<SourceOptions, 'kind' | 'needCount'> {
  concurrency?: number | undefined;
  restart?: boolean | undefined;
}

export interface BulkMemory {
  countStored(reqs: readonly Plan[]): Promise<number>;
  /** The stored answer the request would get, read and checked (a damaged one is named before the gate). */
  peek(req: Plan): Promise<unknown>;
  windowFor(purchase: NonNullable<Plan['purchase']>): number;
  announced: boolean;
  /** Reads the stored answers of the rows about to run, many in one statement. */
  prefetch?(reqs: readonly Plan[]): Promise<void>;
}

/**
 * Rows read ahead of the runner (a counted input: a file, so no row waits for the next slice), their stored answers
 * read in one statement.
 */
const READ_AHEAD_ROWS = 64;

/** The rows as they come, each slice's stored answers read before its first row runs. */
async function* readAhead(
  rows: AsyncIterable<string[]>,
  job: EnrichJob,
  valueIndex: number,
  memory: BulkMemory & { prefetch(reqs: readonly Plan[]): Promise<void> },
): AsyncGenerator<string[]> {
  let slice: string[][] = [];
  const flush = async function* (): AsyncGenerator<string[]> {
    const plans: Plan[] = [];
    for (const cells of slice) {
      try {
        const raw = cells[valueIndex] ?? '';
        if (raw.trim() !== '') plans.push(job.plan(job.clean(raw)));
      } catch {
        // A bad value is the row's own error, said when it runs.
      }
    }
    await memory.prefetch(plans);
    const out = slice;
    slice = [];
    yield* out;
  };
  for await (const cells of rows) {
    slice.push(cells);
    if (slice.length >= READ_AHEAD_ROWS) yield* flush();
  }
  if (slice.length > 0) yield* flush();
}

export interface EnrichPorts {
  term: Terminal;
  /** Asked for late, so a bad input file is reported before a bad `--timeout` or `-o`, as always. */
  http(): Promise<HttpClient>;
  output(): Promise<OutputSettings>;
  gate(plan: Plan): Promise<boolean>;
  /**
   * The worst case must be known before sending (a dry run or a `--max-credits` budget): stdin is then counted first.
   */
  mustCount: boolean;
  now(): number;
  signal?: AbortSignal | undefined;
  /** The purchase memory, asked for once the input is checked; undefined with `--no-store` (nothing is resumable). */
  memory?: (() => Promise<BulkMemory | undefined>) | undefined;
}

/**
 * Would fail every later row too, like a gateway answering for the API (each request maybe charged, nothing readable).
 */
function isFatal(err: unknown): boolean {
  const stops = err instanceof CliError && (err.code.startsWith('store_') || err.code === 'malformed_response');
  return (
    err instanceof AuthError ||
    err instanceof CreditsError ||
    err instanceof RateLimitError ||
    err instanceof InterruptedError ||
    stops
  );
}

function message(err: unknown): string {
  if (err instanceof CliError) return err.hint && err.status !== undefined ? `${err.message} ${err.hint}` : err.message;
  return err instanceof Error ? err.message : String(err);
}

async function enrichOne(
  ports: EnrichPorts,
  job: EnrichJob,
  http: HttpClient,
  cells: string[],
  valueIndex: number,
): Promise<RowOutcome> {
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
    const source = outcome.storedAt !== undefined ? 'store' : 'api';
    return {
      cells,
      status: outcome.status,
      error: null,
      creditsMilli: Math.round(outcome.creditsCost * 1000),
      result: outcome.result,
      source,
    };
  } catch (err) {
    if (isFatal(err) || ports.signal?.aborted) throw err;
    const maybeCharged = err instanceof CliError && err.maybeCharged === true;
    return {
      cells,
      status: 'error',
      error: message(err),
      creditsMilli: 0,
      result: null,
      ...(maybeCharged ? { maybeCharged } : {}),
    };
  }
}

export async function runEnrichment(ports: EnrichPorts, job: EnrichJob, o: BulkOptions): Promise<void> {
  const { term } = ports;
  // Rows of any number go through: memory must not grow with them.
  if (o.input !== undefined || o.values.length !== 1) holdHeapSize();
  const source = await openBulkSource(term, { ...o, kind: job.kind, needCount: ports.mustCount });
  try {
    const http = await ports.http();
    const single = !source.fromFile && o.values.length === 1;
    // One value: a bad one is the command's usage error, before the money gate.
    if (single) job.clean(o.values[0] as string);
    const memory = await ports.memory?.();
    if (single) {
      // A creator the store holds is answered from it: the plan prices nothing.
      const stored = memory && (await memory.peek(job.plan(job.clean(o.values[0] as string)))) !== undefined ? 1 : 0;
      let fromStore: string | undefined;
      if (stored > 0 && memory) {
        fromStore = `(bought within ${durationText(memory.windowFor({ kind: 'creator' }))}): 0 credits; ${o.named.maxAge} 0 buys fresh`;
        memory.announced = true;
        // On a terminal the run's one summary line says it; elsewhere (no summary) this is the line.
        if (!term.stderrIsTTY) term.notice(`In the store ${fromStore}.`);
      }
      if (!(await ports.gate(runPlan(job, source.firstValue, 1 - stored, o, stored)))) return;
      return await runSingle(ports, job, http, o.values[0] as string, fromStore);
    }

    // Rows the store already holds (bought by any earlier run, whatever its -o or input file) are not bought again,
    // and a value refused here (an invalid address) is never sent: neither is priced, so a dry run quotes the charge.
    // Counted in the same pass that counts the rows and checks the file.
    let already = 0;
    let refused = 0;
    await source.countPass(async (values) => {
      const counted = await countAhead(memory, job, values);
      already += counted.stored;
      refused += counted.refused;
    });
    const output = await ports.output();
    const total = source.count;
    if (already > 0 && memory) {
      const window = memory.windowFor({ kind: 'creator' });
      term.notice(
        `${countText(already)} of ${plural(total ?? already, 'row')} from the store (bought within ${durationText(window)}): 0 credits; ${o.named.maxAge} 0 buys fresh.`,
      );
      memory.announced = true;
    }
    const left = total === undefined ? undefined : Math.max(0, total - already - refused);
    if (!(await ports.gate(runPlan(job, source.firstValue, left, o, already, refused)))) return;
    await runMany(
      ports,
      job,
      http,
      o,
      // Read ahead only when the count found rows in the store: with none (a first run), a row's own look finds
      // one another process bought meanwhile, and reading ahead would cost every row a second key and look.
      memory?.prefetch && total !== undefined && already > 0
        ? {
            ...source,
            rows: readAhead(source.rows, job, source.valueIndex, memory as Parameters<typeof readAhead>[3]),
            runs: undefined,
          }
        : source,
      output,
      memory !== undefined,
    );
  } finally {
    await source.cleanup();
  }
}

/** Of one batch of values: those the store answers, and those `clean` refuses (never sent). */
async function countAhead(
  memory: BulkMemory | undefined,
  job: EnrichJob,
  values: readonly string[],
): Promise<{ stored: number; refused: number }> {
  const plans: Plan[] = [];
  let refused = 0;
  for (const value of values) {
    try {
      plans.push(job.plan(job.clean(value)));
    } catch {
      refused++;
    }
  }
  return { stored: memory && plans.length > 0 ? await memory.countStored(plans) : 0, refused };
}

function keptText(
  ports: EnrichPorts,
  output: OutputSettings,
  written: number,
  resumable: boolean,
  named: BulkNames,
): string {
  const where = output.outputPath ? `in ${shownPath(ports.term.cwd, output.outputPath)}` : 'written to standard output';
  const rows = `${plural(written, 'row')} ${where} (partial)`;
  return resumable
    ? `${rows}; re-run the same command to resume (rows in the store are not bought again)`
    : `${rows}; with ${named.noStore} nothing is kept for a re-run`;
}

function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

async function runMany(
  ports: EnrichPorts,
  job: EnrichJob,
  http: HttpClient,
  o: BulkOptions,
  source: BulkSource,
  output: OutputSettings,
  resumable: boolean,
): Promise<void> {
  const { term } = ports;
  if (source.fromFile && !output.formatExplicit) output = { ...output, format: 'csv' };
  const counts = { done: 0, failed: 0, notFound: 0, skipped: 0, creditsMilli: 0, resumed: 0, maybeCharged: 0 };
  // Rows streaming to the same terminal would be glued to the progress line: they show progress themselves.
  // The progress line is the run's live display: no wait spinner on top of it.
  const rowsToTerminal =
    term.stdoutIsTTY && !output.outputPath && output.format !== 'table' && output.pager === undefined;
  const progress = rowsToTerminal ? undefined : term.liveLine(ports.now);
  const runner = new OrderedRunner<string[], RowOutcome>({
    items: source.rows,
    chunks: source.runs,
    // Forced, or sized from the pace in force and the latency the service shows (Little's law).
    concurrency: o.concurrency ?? (() => concurrencyFor(http.load())),
    signal: ports.signal,
    work: async (cells) => {
      const row = await enrichOne(ports, job, http, cells, source.valueIndex);
      counts.creditsMilli += row.creditsMilli;
      if (row.source === 'store') counts.resumed++;
      counts.done++;
      if (row.status === 'error') counts.failed++;
      if (row.maybeCharged) counts.maybeCharged++;
      if (row.status === 'not_found') counts.notFound++;
      if (row.status === 'skipped') counts.skipped++;
      progress?.draw((elapsed) => progressText(job.label, counts, source.count, elapsed));
      return row;
    },
  });
  const valueColumn = source.header[source.valueIndex] ?? job.kind;
  const rowsThenClear = (async function* () {
    let yielded = 0;
    for await (const rows of runner.runBatches()) {
      yielded += rows.length;
      yield rows;
    }
    progress?.clear();
    // Stopped before a single row (a 401, no credits): no output at all, not a lone csv header on stdout.
    if (yielded === 0 && runner.stopped !== undefined) throw runner.stopped;
  })();
  let written: number;
  try {
    written = await printOutcomeBatches(
      term,
      output,
      source.header,
      job.resultColumns,
      job.tableColumns(valueColumn),
      rowsThenClear,
      source.fromFile,
    );
  } catch (err) {
    if (err === runner.stopped) {
      const kept = resumable
        ? `no rows written; re-run the same command to resume, ${o.named.restart} to start over`
        : 'no rows written';
      throw withStopReport(err, { spentMilli: counts.creditsMilli, kept });
    }
    // The output could not be written: what was paid for is in the store for the next run.
    if (counts.done === 0) throw err;
    const failed = err instanceof OutputFileError ? outputFileCliError(err) : err;
    const kept = resumable
      ? `${plural(counts.done - counts.skipped, 'answered row')} kept in the store; re-run the same command to resume without paying for them again`
      : `the rows were not kept (${o.named.noStore})`;
    throw withStopReport(failed, { spentMilli: counts.creditsMilli, kept });
  } finally {
    progress?.close();
  }
  await summary(term, http, counts, written);
  if (runner.stopped !== undefined) {
    const report = { spentMilli: counts.creditsMilli, kept: keptText(ports, output, written, resumable, o.named) };
    const stopped = runner.stopped;
    if (stopped instanceof InterruptedError) {
      // Requests already sent were finished by the HTTP client (their answers are in `written`); rows
      // not started were never sent: nothing in flight may have been charged without being kept.
      throw withStopReport(
        new InterruptedError(`Interrupted: ${plural(written, 'row')} written, in input order; the rest were not.`),
        report,
      );
    }
    throw withStopReport(stopped, report);
  }
  if (counts.failed > 0) {
    // Failed rows were not charged and are not in the store, so a re-run retries only them.
    // A row whose answer was lost after it reached the server may have been charged: say so, once.
    const lost =
      counts.maybeCharged > 0
        ? ` ${counts.maybeCharged} of them reached the server and lost ${counts.maybeCharged === 1 ? 'its' : 'their'} answer: ${counts.maybeCharged === 1 ? 'it' : 'they'} may have been charged (\`creators credits\` shows the balance).`
        : '';
    throw new PartialFailure(
      `${countText(counts.failed)} of ${plural(counts.done, 'row')} failed; see the status and error columns.${lost}`,
      {
        hint: resumable
          ? 'Re-run the same command to retry only the failed rows (the others are not sent or paid for again).'
          : undefined,
        ...(counts.maybeCharged > 0 ? { maybeCharged: true } : {}),
      },
    );
  }
}

function runPlan(
  job: EnrichJob,
  firstValue: string | undefined,
  count: number | undefined,
  o: BulkOptions,
  already = 0,
  refused = 0,
): Plan {
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
  const notSent = refused > 0 ? ` (${plural(refused, `invalid ${job.kind}`)}, not sent)` : '';
  return {
    ...unit,
    // The plan of the whole run, not one purchase.
    purchase: undefined,
    worstCaseMilli: count === undefined ? null : count * priceMilli,
    costBasis:
      count === undefined
        ? `row count unknown (standard input; pass ${o.named.maxRows} to bound it) x ${price}`
        : count === 0 && already > 0
          ? `${plural(already, job.kind)} from the store at 0 credits`
          : `${plural(count, job.kind)} x ${price}${o.input === '-' && o.maxRows !== undefined ? ` (at most, ${o.named.maxRows})` : ''}${already > 0 ? ` (${countText(already)} more from the store at 0 credits)` : ''}${notSent}`,
  };
}

/**
 * One value as an argument: errors are the command's errors (their own exit codes), the record is printed as an object.
 */
async function runSingle(
  ports: EnrichPorts,
  job: EnrichJob,
  http: HttpClient,
  raw: string,
  fromStore?: string,
): Promise<void> {
  const { term } = ports;
  const value = job.clean(raw);
  // Output settings first: an -o that cannot be written fails before anything is paid for.
  const output = await ports.output();
  const outcome = await job.send(http, value);
  const row: RowOutcome = {
    cells: [raw],
    status: outcome.status,
    error: null,
    creditsMilli: Math.round(outcome.creditsCost * 1000),
    result: outcome.result,
    source: outcome.storedAt !== undefined ? 'store' : 'api',
  };
  if (outcome.status === 'not_found') term.notice(`No data found for '${value}' (not charged).`);
  const record = nestedRecord([job.kind], row);
  if (output.format === 'csv' || output.format === 'tsv') {
    await printOutcomes(term, output, [job.kind], job.resultColumns, [], [row]);
  } else if (output.format === 'table') {
    // The columns a list shows only on a wide terminal are not rows of one record's table.
    const columns = job.tableColumns(job.kind).filter((c) => c.path !== 'error' && c.wide !== true);
    await printPaidItem(term, output, record, columns, row.creditsMilli, (shown, layout) =>
      creatorCard(shown, layout, job.platform),
    );
  } else {
    await printPaidItem(term, output, record, undefined, row.creditsMilli);
  }
  // One value is not a run of rows: its line says what became of it (a value not found was said above).
  if (outcome.status !== 'not_found')
    await singleSummary(term, http, value, row.creditsMilli, row.source === 'store' ? fromStore : undefined);
}

async function singleSummary(
  term: Terminal,
  http: HttpClient,
  value: string,
  creditsMilli: number,
  fromStore: string | undefined,
): Promise<void> {
  if (!term.stderrIsTTY || term.quiet) return;
  if (fromStore !== undefined) {
    term.notice(`Enriched ${value} from the store ${fromStore}.`);
    return;
  }
  let left = '';
  if (creditsMilli > 0) {
    const credits = await getCredits(http).catch(() => undefined);
    if (credits?.credits_available !== null && credits?.credits_available !== undefined)
      left = `; ${plural(credits.credits_available, 'credit')} left`;
  }
  term.notice(`Enriched ${value}: ${creditCount(creditsMilli)} spent${left}.`);
}

async function summary(
  term: Terminal,
  http: HttpClient,
  c: { done: number; failed: number; notFound: number; skipped: number; creditsMilli: number; resumed?: number },
  written: number,
): Promise<void> {
  if (!term.stderrIsTTY || term.quiet) return;
  let left = '';
  if (c.creditsMilli > 0) {
    const credits = await getCredits(http).catch(() => undefined);
    if (credits?.credits_available !== null && credits?.credits_available !== undefined)
      left = `, ${countText(credits.credits_available)} left`;
  }
  const ok = c.done - c.failed - c.notFound - c.skipped;
  const skipped = c.skipped > 0 ? `, ${c.skipped} blank` : '';
  const resumed = c.resumed ? ` (${countText(c.resumed)} from the store)` : '';
  term.notice(
    `${plural(written, 'row')}: ${countText(ok)} enriched, ${countText(c.notFound)} not found${skipped}, ${countText(c.failed)} failed${resumed}; ${creditCount(c.creditsMilli)} spent${left}.`,
  );
}
