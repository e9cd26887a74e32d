/**
 * Files are read twice (a counting pass for the `rows x price` worst case, then the run); stdin once, unless
 * the cost must be known first (a dry run or a budget without `--max-rows`): then it is spooled to a temp file.
 */
import { detectColumn, type ValueKind } from '../csv/detect.js';
import { countValues, readCsv, spoolStdin, type CsvReadOptions } from '../csv/read.js';
import { openInput, type InputPorts } from '../io/input.js';
import type { Notices } from '../io/terminal.js';
import { countText, plural } from '../output/humanize.js';

export interface BulkSource {
  header: string[];
  valueIndex: number;
  rows: AsyncIterable<string[]>;
  /** The values again, read afresh (the store's count before the money gate); only when `count` is known. */
  values: () => AsyncIterable<string>;
  count: number | undefined;
  firstValue: string | undefined;
  /** True for `--input` (the output then defaults to CSV). */
  fromFile: boolean;
  /** Removes temporary files; always call it. */
  cleanup: () => Promise<void>;
}

export interface SourceOptions {
  values: readonly string[];
  input?: string | undefined;
  column?: string | undefined;
  kind: ValueKind;
  /** Stop after this many rows (bounds the cost of a stdin run without counting it). */
  maxRows?: number | undefined;
  needCount: boolean;
  csv?: CsvReadOptions | undefined;
}

async function* limit<T>(rows: AsyncIterable<T>, max: number | undefined, onCut?: () => void): AsyncGenerator<T> {
  if (max === undefined) {
    yield* rows;
    return;
  }
  let n = 0;
  for await (const row of rows) {
    // A row beyond the limit exists: say so rather than drop the rest of the input silently.
    if (n >= max) {
      onCut?.();
      return;
    }
    yield row;
    n++;
  }
}

export type SourcePorts = InputPorts & Pick<Notices, 'warn'> & Partial<Pick<Notices, 'notice'>>;

/**
 * Opens the source (the values, or the file when `input` is given: the verb has checked it is one of them);
 * every check that can fail on bad input happens here, before anything is sent.
 */
export async function openBulkSource(ports: SourcePorts, o: SourceOptions): Promise<BulkSource> {
  if (o.input === undefined) {
    const values = o.maxRows !== undefined ? o.values.slice(0, o.maxRows) : o.values;
    const left = o.values.length - values.length;
    if (left > 0) ports.warn(`--max-rows ${o.maxRows}: ${countText(left)} of ${plural(o.values.length, 'value')} ${left === 1 ? 'was' : 'were'} not enriched.`);
    return {
      header: [o.kind],
      valueIndex: 0,
      rows: (async function* () {
        for (const v of values) yield [v];
      })(),
      values: async function* () {
        yield* values.filter((v) => v.trim() !== '');
      },
      count: values.filter((v) => v.trim() !== '').length,
      firstValue: values.find((v) => v.trim() !== ''),
      fromFile: false,
      cleanup: async () => {},
    };
  }

  let path = o.input;
  let cleanup = async (): Promise<void> => {};
  if (path === '-' && o.needCount && o.maxRows === undefined) {
    const spooled = await spoolStdin(ports);
    path = spooled.path;
    cleanup = spooled.cleanup;
  }
  try {
    const shown = o.input;
    const read = { ...o.csv, kindHint: o.kind };
    const input = await readCsv(await openInput(ports, path, '--input', { kind: 'CSV' }), shown, { ...read, notice: (m) => ports.notice?.(m) });
    const choice = detectColumn(input.header, input.sample, o.kind, o.column);
    if (choice.guessed) ports.warn(`No ${o.kind} column recognised in ${shown}: using the first column, '${choice.name}'. Name the right one with --column.`);
    let count: number | undefined;
    if (path !== '-') {
      // The counting pass reads the whole file: a malformed row anywhere is refused before anything is sent.
      const counted = await countValues(ports, path, choice.index, read);
      count = o.maxRows !== undefined ? Math.min(counted.values, o.maxRows) : counted.values;
    } else if (o.maxRows !== undefined) {
      count = o.maxRows;
    }
    return {
      header: input.header,
      valueIndex: choice.index,
      rows: limit(input.rows, o.maxRows, () => ports.warn(`Stopped after ${plural(o.maxRows ?? 0, 'row')} (--max-rows); the rest of ${shown} was not read or enriched.`)),
      values: async function* () {
        if (path === '-') return;
        const again = await readCsv(await openInput(ports, path, '--input', { kind: 'CSV' }), shown, { ...read, notice: undefined });
        for await (const row of limit(again.rows, o.maxRows)) {
          const value = row[choice.index] ?? '';
          if (value.trim() !== '') yield value;
        }
      },
      count,
      firstValue: input.sample.map((r) => r[choice.index] ?? '').find((v) => v.trim() !== ''),
      fromFile: true,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
