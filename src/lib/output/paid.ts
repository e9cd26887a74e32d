/**
 * Records that were paid for are kept: a paging command that stops part-way (402, Ctrl-C, a network error)
 * completes and commits its output with what it received, then rethrows the stop with a report of what this
 * run spent, so the command exits with the stop's own code. A failed write keeps nothing and says so.
 */
import {
  AuthError,
  CreditsError,
  InterruptedError,
  OutputWriteError,
  PagerClosedError,
  RateLimitError,
  withStopReport,
  type StopReport,
} from '../errors.js';
import type { Terminal } from '../io/terminal.js';
import { printItem, printList, type TerminalView } from './printers.js';
import { OutputFileError, outputFileCliError } from './sink.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';
import { plural } from '../words.js';

export interface PaidRun {
  /** Read after the run stopped. */
  spentMilli(): number;
  noun: string;
}

function outputFile(settings: Pick<OutputSettings, 'outputPath'>): string | undefined {
  const target = settings.outputPath;
  return target === undefined || target === '' || target === '-' ? undefined : target;
}

function keptWhere(count: number, noun: string, settings: Pick<OutputSettings, 'outputPath'>): string {
  const file = outputFile(settings);
  const counted = plural(count, noun.replace(/s$/, ''), noun);
  return file === undefined ? `${counted} written to standard output` : `${counted} kept in ${file}`;
}

/** Errors that stop a billable run for a reason the user must hear about with the spend. */
function isStop(err: unknown): boolean {
  return (
    err instanceof InterruptedError ||
    err instanceof CreditsError ||
    err instanceof RateLimitError ||
    err instanceof AuthError ||
    err instanceof OutputWriteError
  );
}

function isOutputFailure(err: unknown): boolean {
  return err instanceof OutputWriteError || err instanceof OutputFileError;
}

/** Undefined when there is nothing worth saying (no spend, not a stop). */
function stopReport(
  err: unknown,
  run: PaidRun,
  settings: Pick<OutputSettings, 'outputPath'>,
  written: number | undefined,
): StopReport | undefined {
  const spentMilli = run.spentMilli();
  if (spentMilli === 0 && !isStop(err) && !isOutputFailure(err)) return undefined;
  const file = outputFile(settings);
  let kept: string;
  if (isOutputFailure(err)) {
    const sent = written === undefined ? '' : ` (${written} ${run.noun} were sent before the failure)`;
    kept =
      file === undefined
        ? `the output to standard output is incomplete${sent}`
        : `nothing kept, ${file} was not written`;
  } else if (written === 0 || written === undefined) {
    kept = 'nothing was received, nothing kept';
  } else {
    kept = `${keptWhere(written, run.noun, settings)}, a partial result (the run stopped before the end)`;
  }
  return { spentMilli, kept };
}

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
    if (caught instanceof PagerClosedError) throw caught;
    const report = stopReport(caught, run, settings, received);
    const err = caught instanceof OutputFileError ? outputFileCliError(caught) : caught;
    throw report ? withStopReport(err, report) : err;
  }
  if (stopped !== undefined) {
    const report = stopReport(stopped.error, run, settings, count) ?? {
      spentMilli: run.spentMilli(),
      kept: `${keptWhere(count, run.noun, settings)}, a partial result`,
    };
    throw withStopReport(stopped.error, report);
  }
  return count;
}

/** A failed write of a paid answer says what the request cost, since the answer itself is lost. */
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
