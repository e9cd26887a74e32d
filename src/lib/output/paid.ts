/**
 * Printing records that were paid for. A paging command (`search --all`, `similar --all`, `post
 * --kind comments --all`) that stops part-way (402, a daily limit, the fair-use cap, Ctrl-C, a network
 * error) after records arrived keeps them: the output is completed with what was received (a
 * well-formed JSON array, a CSV with its header) and committed, and the stop is rethrown with a stop
 * report saying what this run spent and that the output is partial, so the command exits with the
 * stop's own code. A failed write (a full disk) keeps nothing and says so, with the spend.
 */
import { AuthError, CreditsError, InterruptedError, OutputWriteError, PagerClosedError, RateLimitError, withStopReport, type StopReport } from '../errors.js';
import type { Terminal } from '../io/terminal.js';
import { printItem, printList, type TerminalView } from './printers.js';
import { OutputFileError, outputFileCliError } from './sink.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';
import { plural } from './humanize.js';

/** How a paid run counts its spend and names its records (`creators`, `comments`). */
export interface PaidRun {
  /** Credits spent so far by this run, in thousandths (read after the run stopped). */
  spentMilli(): number;
  /** The plural noun of a record in messages. */
  noun: string;
}

/** The `-o` file, or undefined for standard output. */
function outputFile(settings: Pick<OutputSettings, 'outputPath'>): string | undefined {
  const target = settings.outputPath;
  return target === undefined || target === '' || target === '-' ? undefined : target;
}

/** `550 creators kept in p.json` or `550 creators written to standard output`. */
function keptWhere(count: number, noun: string, settings: Pick<OutputSettings, 'outputPath'>): string {
  const file = outputFile(settings);
  // `noun` is the plural (`creators`); one record reads `1 creator`.
  const counted = plural(count, noun.replace(/s$/, ''), noun);
  return file === undefined ? `${counted} written to standard output` : `${counted} kept in ${file}`;
}

/** Errors that stop a billable run for a reason the user must hear about with the spend. */
function isStop(err: unknown): boolean {
  return err instanceof InterruptedError || err instanceof CreditsError || err instanceof RateLimitError || err instanceof AuthError || err instanceof OutputWriteError;
}

/** A failure of the output itself (a failed write, a file that could not be put in place). */
function isOutputFailure(err: unknown): boolean {
  return err instanceof OutputWriteError || err instanceof OutputFileError;
}

/**
 * The report of a run that stopped: `written` records are in the output (partial) unless the output
 * itself failed. Returns undefined when there is nothing worth saying (no spend, not a stop).
 */
function stopReport(err: unknown, run: PaidRun, settings: Pick<OutputSettings, 'outputPath'>, written: number | undefined): StopReport | undefined {
  const spentMilli = run.spentMilli();
  if (spentMilli === 0 && !isStop(err) && !isOutputFailure(err)) return undefined;
  const file = outputFile(settings);
  let kept: string;
  if (isOutputFailure(err)) {
    const sent = written === undefined ? '' : ` (${written} ${run.noun} were sent before the failure)`;
    kept = file === undefined ? `the output to standard output is incomplete${sent}` : `nothing kept, ${file} was not written`;
  } else if (written === 0 || written === undefined) {
    kept = 'nothing was received, nothing kept';
  } else {
    kept = `${keptWhere(written, run.noun, settings)}, a partial result (the run stopped before the end)`;
  }
  return { spentMilli, kept };
}

/**
 * `printList` for records that were paid for: see the module comment. Returns the number of records
 * printed when the run went to its end; throws the stop (with its report) otherwise. A failure before
 * any record arrived is rethrown as is (with a report when something was spent): no empty file is made.
 */
export async function printPaidList(
  io: Terminal,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord>,
  columns: ColumnSpec[],
  run: PaidRun,
): Promise<number> {
  let received = 0;
  let stopped: { error: unknown } | undefined;
  async function* untilStop(): AsyncGenerator<DataRecord> {
    try {
      for await (const record of records) {
        received++;
        yield record;
      }
    } catch (error) {
      // Nothing received: nothing to keep, and no empty file or `[]` that looks like an answer.
      if (received === 0) throw error;
      stopped = { error };
    }
  }
  let count: number;
  try {
    count = await printList(io, settings, untilStop(), columns);
  } catch (caught) {
    // The user quit the pager: the run stops there (no further page is bought), quietly.
    if (caught instanceof PagerClosedError) throw caught;
    const report = stopReport(caught, run, settings, received);
    const err = caught instanceof OutputFileError ? outputFileCliError(caught) : caught;
    throw report ? withStopReport(err, report) : err;
  }
  if (stopped !== undefined) {
    const report = stopReport(stopped.error, run, settings, count) ?? { spentMilli: run.spentMilli(), kept: `${keptWhere(count, run.noun, settings)}, a partial result` };
    throw withStopReport(stopped.error, report);
  }
  return count;
}

/**
 * Any printing of a paid answer (`creators api`'s item, list or text): a failed write says what the
 * request cost, since the answer itself is lost.
 */
export async function printPaid<T>(settings: OutputSettings, spentMilli: number, print: () => Promise<T>): Promise<T> {
  try {
    return await print();
  } catch (caught) {
    if (caught instanceof PagerClosedError) throw caught;
    const report = stopReport(caught, { spentMilli: () => spentMilli, noun: 'records' }, settings, undefined);
    const err = caught instanceof OutputFileError ? outputFileCliError(caught) : caught;
    throw report ? withStopReport(err, report) : err;
  }
}

/**
 * `printItem` for one record that was paid for (a post's details, one enrichment, shown on a terminal
 * as the `view` card when given): a failed write says what the request cost, since the record itself
 * is lost.
 */
export async function printPaidItem(
  io: Terminal,
  settings: OutputSettings,
  record: DataRecord,
  columns: ColumnSpec[] | undefined,
  spentMilli: number,
  view?: TerminalView,
): Promise<void> {
  await printPaid(settings, spentMilli, () => printItem(io, settings, record, columns, view));
}
