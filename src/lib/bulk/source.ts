/**
 * Files are read twice: one pass before the money gate (the `rows x price` worst case, a malformed row refused,
 * the rows the store holds counted), then the run. Stdin once, unless the cost must be known first (a dry run
 * or a budget without `--max-rows`): then it is spooled to a temp file.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { detectColumn, type ColumnNames, type ValueKind } from '../csv/detect.js';
import { decodeText } from '../csv/decode.js';
import { plainScanner } from '../csv/plain-scan.js';
import { readCsv, spoolStdin, type CsvInput, type CsvReadOptions } from '../csv/read.js';
import { openInputChunks, type InputPorts } from '../io/input.js';
import type { Notices } from '../io/terminal.js';
import { countText, plural } from '../words.js';

export interface BulkSource {
  header: string[];
  valueIndex: number;
  rows: AsyncIterable<string[]>;
  /** The same rows in runs as parsed together, when nothing cuts them (read either this or `rows`). */
  runs?: AsyncIterable<readonly string[][]> | undefined;
  /**
   * The pass before the money gate: reads a file whole (a malformed row anywhere is refused before anything
   * is sent), sets `count`, and hands the non-blank values to `visit` in batches (the store's count of what it
   * holds). Nothing for stdin read once.
   */
  countPass(visit?: (values: string[]) => Promise<void>): Promise<void>;
  /** Known after `countPass` (arguments: at once); undefined for stdin read once without `--max-rows`. */
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
  /** How messages name the run's inputs and bounds: the words of the command that took them (its flags). */
  named: BulkNames;
}

export interface BulkNames extends ColumnNames {
  input: string;
  maxRows: string;
  restart: string;
  /** The way to keep no store, and to buy fresh past it. */
  noStore: string;
  maxAge: string;
}

/** The rows, cut at `max`; without one, the rows themselves (no generator a row passes through for nothing). */
function limit<T>(rows: AsyncIterable<T>, max: number | undefined, onCut?: () => void): AsyncIterable<T> {
  return max === undefined ? rows : limited(rows, max, onCut);
}

async function* limited<T>(rows: AsyncIterable<T>, max: number, onCut?: () => void): AsyncGenerator<T> {
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

/**
 * The data rows of a file found plain before the gate, read by the plain scan (csv-parse cost ~1.8 us a row here),
 * a run per piece of text. Should the file no longer be plain (changed since), csv-parse reads it from the start and
 * the rows already handed are skipped: it reads them alike, and its error names a bad line as before.
 */
async function* plainRuns(
  ports: SourcePorts,
  path: string,
  named: string,
  shown: string,
  input: CsvInput,
  index: number,
  read: CsvReadOptions & { kindHint: string },
): AsyncGenerator<string[][]> {
  await input.close();
  let run: string[][] = [];
  let handed = 0;
  const scan = plainScanner({
    delimiter: input.dialect.delimiter,
    skipFirst: !input.headerSynthesized,
    index,
    row: () => {},
    record: (cells) => run.push(cells),
  });
  let whole = true;
  for await (const text of decodeText(await openInputChunks(ports, path, named, { kind: 'CSV' }), shown)) {
    whole = scan.push(text);
    const got = run;
    run = [];
    handed += got.length;
    if (got.length > 0) yield got;
    if (!whole) break;
  }
  if (whole) {
    whole = scan.end();
    const got = run;
    run = [];
    handed += got.length;
    if (got.length > 0) yield got;
    if (whole) return;
  }
  const again = await readCsv(await openInputChunks(ports, path, named, { kind: 'CSV' }), shown, {
    ...read,
    notice: undefined,
  });
  let skip = handed;
  for await (const rows of again.runs) {
    if (skip >= rows.length) {
      skip -= rows.length;
      continue;
    }
    yield skip > 0 ? rows.slice(skip) : rows;
    skip = 0;
  }
}

async function regularFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** Values handed to the store's count at once: one query each. */
const VISIT_BATCH = 1000;

export type SourcePorts = InputPorts & Pick<Notices, 'warn'> & Partial<Pick<Notices, 'notice'>>;

/**
 * Opens the source (the values, or the file when `input` is given: the verb has checked it is one of them);
 * every check that can fail on bad input happens here, before anything is sent.
 */
export async function openBulkSource(ports: SourcePorts, o: SourceOptions): Promise<BulkSource> {
  if (o.input === undefined) {
    const values = o.maxRows !== undefined ? o.values.slice(0, o.maxRows) : o.values;
    const left = o.values.length - values.length;
    if (left > 0)
      ports.warn(
        `${o.named.maxRows} ${o.maxRows}: ${countText(left)} of ${plural(o.values.length, 'value')} ${left === 1 ? 'was' : 'were'} not enriched.`,
      );
    return {
      header: [o.kind],
      valueIndex: 0,
      rows: (async function* () {
        for (const v of values) yield [v];
      })(),
      async countPass(visit) {
        const given = values.filter((v) => v.trim() !== '');
        for (let i = 0; visit && i < given.length; i += VISIT_BATCH) await visit(given.slice(i, i + VISIT_BATCH));
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
    const spooled = await spoolStdin(ports, o.named.input);
    path = spooled.path;
    cleanup = spooled.cleanup;
  }
  try {
    const shown = o.input;
    const read = { ...o.csv, kindHint: o.kind };
    const input = await readCsv(await openInputChunks(ports, path, o.named.input, { kind: 'CSV' }), shown, {
      ...read,
      notice: (m) => ports.notice?.(m),
    });
    const choice = detectColumn(input.header, input.sample, o.kind, o.column, o.named);
    let plainFile = false;
    if (choice.guessed)
      ports.warn(
        `No ${o.kind} column recognised in ${shown}: using the first column, '${choice.name}'. Name the right one with ${o.named.column}.`,
      );
    const source: BulkSource = {
      header: input.header,
      valueIndex: choice.index,
      // A file the pass before the gate found plain is read again by the plain scan, not csv-parse.
      runs:
        o.maxRows === undefined
          ? {
              [Symbol.asyncIterator]: () =>
                (plainFile ? plainRuns(ports, path, o.named.input, shown, input, choice.index, read) : input.runs)[
                  Symbol.asyncIterator
                ](),
            }
          : undefined,
      rows: limit(input.rows, o.maxRows, () =>
        ports.warn(
          `Stopped after ${plural(o.maxRows ?? 0, 'row')} (${o.named.maxRows}); the rest of ${shown} was not read or enriched.`,
        ),
      ),
      async countPass(visit) {
        if (path === '-') return;
        let rows = 0;
        let values = 0;
        let batch: string[] = [];
        // Values a plain scan handed to `visit` before it gave up: csv-parse reads them alike and does not hand them again.
        let handed = 0;
        let skip = 0;
        const take = (value: string): void => {
          // Rows past --max-rows are not sent: read to the end all the same, for the check.
          const sent = o.maxRows === undefined || rows++ < o.maxRows;
          if (value.trim() === '') return;
          values++;
          if (!visit || !sent) return;
          if (skip > 0) skip--;
          else batch.push(value);
        };
        const hand = async (all: boolean): Promise<void> => {
          while (visit && (batch.length >= VISIT_BATCH || (all && batch.length > 0))) {
            const some = batch.splice(0, VISIT_BATCH);
            handed += some.length;
            await visit(some);
          }
        };
        const { delimiter, plain } = input.dialect;
        if (!plain && delimiter.length === 1 && delimiter !== '"' && !read.relaxColumns) {
          const scan = plainScanner({ delimiter, skipFirst: !input.headerSynthesized, index: choice.index, row: take });
          let whole = true;
          let handing = false;
          try {
            for await (const text of decodeText(
              await openInputChunks(ports, path, o.named.input, { kind: 'CSV' }),
              shown,
            )) {
              if (!scan.push(text)) {
                whole = false;
                break;
              }
              handing = true;
              await hand(false);
              handing = false;
            }
          } catch (err) {
            // The store's error is the run's; one reading the file is said by csv-parse's pass, as before.
            if (handing) throw err;
            whole = false;
          }
          if (whole && scan.end()) {
            // Read again from the start only where that costs a peek: a FIFO or a device gives its bytes once each
            // open (the run goes on reading the stream the header was read from).
            plainFile = await regularFile(resolve(ports.cwd, path));
            await hand(true);
            source.count = o.maxRows !== undefined ? Math.min(values, o.maxRows) : values;
            return;
          }
          rows = 0;
          values = 0;
          batch = [];
          skip = handed;
        }
        const all = await readCsv(await openInputChunks(ports, path, o.named.input, { kind: 'CSV' }), shown, {
          ...read,
          notice: undefined,
        });
        for await (const row of all.rows) {
          take(row[choice.index] ?? '');
          await hand(false);
        }
        await hand(true);
        source.count = o.maxRows !== undefined ? Math.min(values, o.maxRows) : values;
      },
      count: path === '-' && o.maxRows !== undefined ? o.maxRows : undefined,
      firstValue: input.sample.map((r) => r[choice.index] ?? '').find((v) => v.trim() !== ''),
      fromFile: true,
      cleanup,
    };
    return source;
  } catch (err) {
    await cleanup();
    throw err;
  }
}
