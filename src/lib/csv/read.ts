/**
 * The one reader of a user's CSV (a file or stdin), streamed by csv-parse so no file is held in memory. One
 * set of rules: rows of another width than the header are refused with their line unless `relaxColumns`.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { UsageError } from '../errors.js';
import { describeFsError } from '../io/errno.js';
import { openInput, type InputPorts } from '../io/input.js';
import { decodeText, named } from './decode.js';
import { isHeaderRow } from './detect.js';
import { plural } from '../words.js';

export const SAMPLE_ROWS = 5;

/** The delimiters recognised in a header line, in the order a tie is settled. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

export interface CsvReadOptions {
  delimiter?: string | undefined;
  /** Rows of another width are padded or cut to the header's. */
  relaxColumns?: boolean | undefined;
  /** How messages name the two options: the verb's flags; absent (a verb without them), they are not offered. */
  named?: CsvNames | undefined;
}

export interface CsvNames {
  delimiter: string;
  relaxColumns: string;
}

export interface CsvStreamOptions extends CsvReadOptions {
  comments?: boolean | undefined;
  notice?: ((message: string) => void) | undefined;
  /** Told how the input is read, once decided: its delimiter, and `plain` for tab-separated text without CSV quoting. */
  onDialect?: ((dialect: CsvDialect) => void) | undefined;
}

export interface CsvDialect {
  delimiter: string;
  plain: boolean;
}

/** The most frequent outside quotes; a comma when none. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) ?? 0;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

async function peekHeaderLine(
  pieces: AsyncIterator<string>,
): Promise<{ line: string; replay: AsyncGenerator<string> }> {
  let text = '';
  let done = false;
  let quoted = false;
  let end = -1;
  let scanned = 0;
  while (end === -1 && !done && text.length < 1024 * 1024) {
    const next = await pieces.next();
    if (next.done) {
      done = true;
      break;
    }
    text += next.value;
    for (; scanned < text.length; scanned++) {
      const c = text[scanned];
      if (c === '"') quoted = !quoted;
      else if (!quoted && (c === '\n' || c === '\r')) {
        // A leading blank line is not the header.
        if (text.slice(0, scanned).trim() === '') continue;
        end = scanned;
        break;
      }
    }
  }
  const replay = replayOf(text, done, pieces);
  return { line: (end === -1 ? text : text.slice(0, end)).trim(), replay };
}

/** What was peeked (`head`), then the rest of `pieces`: the input whole again. */
async function* replayOf(head: string, done: boolean, pieces: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    if (head) yield head;
    if (done) return;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
  } finally {
    // A reader that stops early closes the input (its file).
    await pieces.return?.(undefined);
  }
}

/** How much of a tab-separated input is read to tell CSV quoting from plain TSV. */
const PLAIN_TSV_WINDOW = 1024 * 1024;

async function peekText(
  pieces: AsyncIterator<string>,
  limit: number,
): Promise<{ text: string; done: boolean; replay: AsyncGenerator<string> }> {
  let text = '';
  let done = false;
  while (text.length < limit) {
    const next = await pieces.next();
    if (next.done) {
      done = true;
      break;
    }
    text += next.value;
  }
  const replay = replayOf(text, done, pieces);
  return { text, done, replay };
}

/** A quote left open where the window was cut says nothing: the quoted value may go on after it. */
async function quotesAreNotCsv(text: string, whole: boolean, comments: boolean): Promise<boolean> {
  if (!text.includes('"')) return false;
  const cut = whole ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
  const error = await new Promise<unknown>((resolve) => {
    parse(
      cut,
      {
        delimiter: '\t',
        record_delimiter: ['\r\n', '\n', '\r'],
        skip_empty_lines: true,
        relax_column_count: true,
        max_record_size: MAX_RECORD,
        ...(comments ? { comment: '#', comment_no_infix: true } : {}),
      },
      (err) => resolve(err),
    );
  });
  if (!(error instanceof CsvError)) return false;
  return (
    error.code === 'INVALID_OPENING_QUOTE' ||
    error.code === 'CSV_INVALID_CLOSING_QUOTE' ||
    (whole && error.code === 'CSV_QUOTE_NOT_CLOSED')
  );
}

function describeCsvError(err: CsvError, delimiter: string, named: CsvNames | undefined): string {
  const e = err as CsvError & { lines?: number; column?: number; record?: string[]; field?: string };
  const line = e.lines ?? 0;
  const sep = DELIMITER_NAMES[delimiter] ?? `'${delimiter}'`;
  switch (err.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
      const got = e.record?.length ?? 0;
      const want = /expect (\d+)/.exec(err.message)?.[1] ?? '?';
      const relax = named === undefined ? '' : `, or pass ${named.relaxColumns} to pad or cut rows to the header`;
      return `line ${line} has ${plural(got, 'value')} where the header has ${want} (${sep}-separated); quote values that hold a ${sep}${relax}.`;
    }
    case 'INVALID_OPENING_QUOTE':
      return `line ${line}, field ${(e.column ?? 0) + 1}: a quote inside an unquoted value; put the whole value in quotes and double each quote inside it, like "a ""b"" c".`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `line ${line}: a closing quote is followed by other text instead of a ${sep} or the end of the line; double a quote inside a quoted value ("").`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quote is never closed (the input ends on line ${line}); close it, or double it ("") if it is part of the value.`;
    case 'CSV_MAX_RECORD_SIZE':
      return `a row ending on line ${line} is longer than ${MAX_RECORD} characters; is a quote left open?`;
    default:
      return `line ${line}: ${err.message}`;
  }
}

const MAX_RECORD = 16 * 1024 * 1024;

/**
 * Malformed input is a `UsageError` naming the line, after the records before it (a file's is caught by the counting
 * pass).
 */
export async function* csvRecords(
  stream: AsyncIterable<Buffer | string>,
  source: string,
  options: CsvStreamOptions = {},
): AsyncGenerator<string[]> {
  for await (const records of csvRecordRuns(stream, source, options)) yield* records;
}

/** `csvRecords` in runs: the records the parser holds at once (a chunk of the input), one hop for them all. */
export async function* csvRecordRuns(
  stream: AsyncIterable<Buffer | string>,
  source: string,
  options: CsvStreamOptions = {},
): AsyncGenerator<string[][]> {
  let delimiter = options.delimiter ?? ',';
  try {
    const peeked = await peekHeaderLine(decodeText(stream, source)[Symbol.asyncIterator]());
    const { line } = peeked;
    let { replay } = peeked;
    delimiter = options.delimiter ?? detectDelimiter(line);
    // Plain TSV (Miller's --otsv, database exports) has quotes in its values: quotes CSV would refuse tell it.
    let plain = false;
    if (delimiter === '\t') {
      const window = await peekText(replay[Symbol.asyncIterator](), PLAIN_TSV_WINDOW);
      replay = window.replay;
      plain = await quotesAreNotCsv(window.text, window.done, options.comments === true);
    }
    const detected = options.delimiter === undefined && delimiter !== ',';
    const another = options.named === undefined ? '' : `; ${options.named.delimiter} to choose another`;
    if (plain) {
      options.notice?.(
        `Reading ${named(source)} as plain tab-separated values: its quotes are not CSV quotes and are kept in the values` +
          `${detected ? ` (tab from its header line${another})` : ''}.`,
      );
    } else if (detected) {
      options.notice?.(
        `Reading ${named(source)} as ${DELIMITER_NAMES[delimiter]}-separated (from its header line${another}).`,
      );
    }
    options.onDialect?.({ delimiter, plain });
    const parser = parse({
      delimiter,
      ...(plain ? { quote: false } : {}),
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: options.relaxColumns ?? false,
      max_record_size: MAX_RECORD,
      ...(options.comments ? { comment: '#', comment_no_infix: true } : {}),
    });
    const done = feed(replay, parser);
    try {
      yield* readableRuns<string[]>(parser);
    } finally {
      parser.destroy();
      await done;
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (err instanceof CsvError)
      throw new UsageError(
        `${named(source, true)} is not valid CSV: ${describeCsvError(err, delimiter, options.named)}`,
        {
          code: 'bad_csv',
        },
      );
    throw new UsageError(`Cannot read ${named(source)}: ${describeFsError(err)}.`);
  }
}

/**
 * A readable's objects as Node's own async iterator hands them (`stream.read()` until null, nothing read once it is
 * destroyed, its error thrown after what came before), but all those buffered at once in one array.
 */
async function* readableRuns<T>(stream: Readable): AsyncGenerator<T[]> {
  let wake: () => void = () => {};
  const poke = (): void => {
    const w = wake;
    wake = () => {};
    w();
  };
  // undefined: running; null: ended; else the error.
  let error: unknown;
  stream.on('readable', poke);
  const cleanup = finished(stream, { writable: false }, (err) => {
    error = err ? (error ?? err) : null;
    poke();
  });
  try {
    for (;;) {
      const run: T[] = [];
      for (
        let got = stream.destroyed ? null : stream.read();
        got !== null;
        got = stream.destroyed ? null : stream.read()
      )
        run.push(got as T);
      if (run.length > 0) yield run;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('readable', poke);
    cleanup();
    stream.destroy();
  }
}

/** The text a read becomes fits one feed buffer (16 KB of UTF-8 is at most 16 K characters, 3 bytes each). */
const FEED_BYTES = 64 * 1024;

/**
 * The parser's input as bytes written into two buffers in turn, the next once the parser has taken the last (it
 * copies what it keeps). Handed a string, the stream made a new Buffer of each chunk (on Node 26 in a 64 KB pool the
 * next chunks share, see `holdHeapSize`), which lived through young-generation collections, was promoted, and piled
 * up until a full one (README, Performance). An error reading the input is the parser's.
 */
async function feed(texts: AsyncIterable<string>, parser: Writable): Promise<void> {
  const buffers = [Buffer.allocUnsafeSlow(FEED_BYTES), Buffer.allocUnsafeSlow(FEED_BYTES)] as const;
  let turn = 0;
  try {
    for await (const text of texts) {
      if (parser.destroyed) return;
      turn ^= 1;
      const into = buffers[turn];
      // A longer text (a peeked header, up to 1 MB) as a Buffer of its own.
      await taken(parser, text.length * 3 <= into.length ? into.subarray(0, into.write(text)) : Buffer.from(text));
    }
    parser.end();
  } catch (err) {
    parser.destroy(err as Error);
  }
}

/** Written and taken by the parser; rejected if it closes first (stopped, or failed). */
function taken(parser: Writable, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = (): void => reject(parser.errored ?? new Error('the CSV parser closed'));
    parser.once('close', closed);
    parser.write(bytes, (err) => {
      parser.off('close', closed);
      if (err) reject(err);
      else resolve();
    });
  });
}

export interface CsvInput {
  header: string[];
  /** True when the file had no header row and `header` was made up (`column1`...). */
  headerSynthesized: boolean;
  sample: string[][];
  rows: AsyncIterable<string[]>;
  /** The same rows in runs (as parsed together); read either this or `rows`, not both. */
  runs: AsyncIterable<string[][]>;
  /** Stops reading (neither `rows` nor `runs` will be). */
  close(): Promise<void>;
  /** How it is read (known once the header is). */
  dialect: CsvDialect;
}

export interface ReadCsvOptions extends CsvStreamOptions {
  kindHint?: string | undefined;
  sampleRows?: number | undefined;
}

/** `note,note,note_2` is `note,note_3,note_2`: each column keeps its own name in every output. */
function uniqueNames(names: string[]): string[] {
  const wanted = names.map((raw, i) => raw.trim() || `column${i + 1}`);
  const given = new Set(wanted);
  const taken = new Set<string>();
  const last = new Map<string, number>();
  return wanted.map((name) => {
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
    let n = last.get(name) ?? 1;
    let renamed: string;
    do renamed = `${name}_${++n}`;
    while (given.has(renamed) || taken.has(renamed));
    last.set(name, n);
    taken.add(renamed);
    return renamed;
  });
}

export async function readCsv(
  stream: AsyncIterable<Buffer | string>,
  source: string,
  options: ReadCsvOptions = {},
): Promise<CsvInput> {
  let dialect: CsvDialect = { delimiter: options.delimiter ?? ',', plain: false };
  const records = csvRecordRuns(stream, source, {
    ...options,
    onDialect: (d) => {
      dialect = d;
      options.onDialect?.(d);
    },
  });
  // The header and sample are taken one record at a time from the runs; the rest of a run is handed on whole.
  let held: string[][] = [];
  let at = 0;
  const nextRecord = async (): Promise<IteratorResult<string[], undefined>> => {
    while (at >= held.length) {
      const next = await records.next();
      if (next.done) return { done: true, value: undefined };
      held = next.value;
      at = 0;
    }
    return { done: false, value: held[at++] as string[] };
  };
  const first = await nextRecord();
  if (first.done) throw new UsageError(`${named(source, true)} is empty: it holds no rows.`);
  let header = first.value;
  const sample: string[][] = [];
  const synthesized = !isHeaderRow(header, options.kindHint === 'email' ? 'email' : 'handle');
  if (synthesized) {
    sample.push(header);
    header = header.length === 1 && options.kindHint ? [options.kindHint] : header.map((_, i) => `column${i + 1}`);
  }
  header = uniqueNames(header);
  const width = header.length;
  // Only `relaxColumns` lets a row of another width through; it is fitted to the header.
  const fit = (row: string[]): string[] =>
    row.length === width
      ? row
      : row.length > width
        ? row.slice(0, width)
        : [...row, ...Array<string>(width - row.length).fill('')];
  const wanted = options.sampleRows ?? SAMPLE_ROWS;
  while (sample.length < wanted) {
    const next = await nextRecord();
    if (next.done) break;
    sample.push(next.value);
  }
  const buffered = sample.map(fit);
  const fitted = (run: string[][]): string[][] => (run.every((row) => row.length === width) ? run : run.map(fit));
  async function* runs(): AsyncGenerator<string[][]> {
    try {
      if (buffered.length > 0) yield buffered;
      const rest = held.slice(at);
      held = [];
      if (rest.length > 0) yield fitted(rest);
      for await (const run of records) yield fitted(run);
    } finally {
      await records.return(undefined);
    }
  }
  async function* rows(): AsyncGenerator<string[]> {
    for await (const run of runs()) yield* run;
  }
  const close = async (): Promise<void> => {
    await records.return(undefined);
  };
  return { header, headerSynthesized: synthesized, sample: buffered, rows: rows(), runs: runs(), close, dialect };
}

/** This pass is also what refuses a malformed file before anything is sent. */
export async function countValues(
  ports: InputPorts,
  source: string,
  named: string,
  index: number,
  options: ReadCsvOptions = {},
): Promise<{ rows: number; values: number }> {
  const input = await readCsv(await openInput(ports, source, named, { kind: 'CSV' }), source, {
    ...options,
    notice: undefined,
  });
  let rows = 0;
  let values = 0;
  for await (const row of input.rows) {
    rows++;
    if ((row[index] ?? '').trim() !== '') values++;
  }
  return { rows, values };
}

/** Stdin to a private temporary file, so it can be read twice; `named` is how messages name it. */
export async function spoolStdin(
  ports: InputPorts,
  named: string,
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const stdin = await openInput(ports, '-', named, { kind: 'CSV' });
  const dir = await mkdtemp(join(tmpdir(), 'creators-stdin-'));
  const path = join(dir, 'input.csv');
  await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
