/**
 * Streaming CSV input: rows come out of the parser (parse.ts) a chunk's worth at a time, so a file of
 * any size is never held in memory. Also the helpers a bulk command needs before it spends anything: a
 * counting pass over a file (the `rows x price` worst case) and spooling stdin to a temporary file when
 * the count must be known first.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../errors.js';
import { describeFsError } from '../io/errno.js';
import { openInput, type InputPorts } from '../io/input.js';
import { looksLikeEmail } from './detect.js';
import { CsvParser, CsvSyntaxError, type CsvParseOptions } from './parse.js';
import { firstInvalidByte } from './utf8.js';

/** How many data rows are read ahead to detect the value column by content. */
export const SAMPLE_ROWS = 5;

export interface CsvInput {
  /** Column names, unique (a repeated name gets `_2`, `_3`...). */
  header: string[];
  /** True when the file had no header row and `header` was made up (`column1`...). */
  headerSynthesized: boolean;
  /** The first rows, for column detection; they are also the first rows `rows` yields. */
  sample: string[][];
  /** Every data row, in order, sample included. Each row is padded/cut to the header's width. */
  rows: AsyncIterable<string[]>;
}

/** Names the source in messages: a path in quotes, or standard input (capitalised to start a sentence). */
function named(source: string, startsSentence = false): string {
  if (source !== '-') return `'${source}'`;
  return startsSentence ? 'Standard input' : 'standard input';
}

/** The usage error for invalid UTF-8 at byte `at` of `source`. */
function notUtf8(source: string, at: number): UsageError {
  return new UsageError(`${named(source, true)} is not valid UTF-8 (byte ${at}).`, {
    hint: 'Save the file as UTF-8 (for example: iconv -f latin1 -t utf-8 in.csv > out.csv).',
  });
}

/**
 * The parsed records of a CSV stream, a batch per chunk read: the bytes are decoded once (strictly:
 * invalid UTF-8 is refused, since a mangled handle or email is still a billable request) and parsed by
 * `CsvParser`, so the per-row cost is a few slices rather than a promise or a stream event.
 */
export async function* parseBatches(stream: AsyncIterable<Buffer | string>, source: string, options: CsvParseOptions = {}): AsyncGenerator<string[][]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new CsvParser(options);
  let offset = 0;
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw notUtf8(source, offset + (bytes ? firstInvalidByte(bytes) : 0));
    }
  };
  try {
    for await (const chunk of stream) {
      const text = typeof chunk === 'string' ? chunk : decode(chunk);
      if (typeof chunk !== 'string') offset += chunk.length;
      const batch = parser.push(text);
      if (batch.length > 0) yield batch;
    }
    const last = parser.end(parser.push(decode()));
    if (last.length > 0) yield last;
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new UsageError(`${named(source)} is not valid CSV: ${err.message}`, { code: 'bad_csv' });
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${named(source)}: ${describeFsError(err)}.`);
  }
}

/** A first row that is data rather than a header: an email, an `@handle` or a URL. */
function looksLikeData(row: readonly string[]): boolean {
  return row.some((cell) => looksLikeEmail(cell) || /^@\w/.test(cell.trim()) || /^https?:\/\//i.test(cell.trim()));
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw, i) => {
    const name = raw.trim() || `column${i + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

/**
 * Reads a CSV stream: the first row is the header unless it looks like data (an email, `@handle` or
 * URL), in which case columns are named `column1`... (a one-column file is named by `kindHint`).
 */
export async function readCsv(stream: Readable, source: string, kindHint?: string): Promise<CsvInput> {
  const batches = parseBatches(stream, source);
  // Rows of the current batch not yet taken; `next` hands them out one by one, then awaits a new batch.
  let pending: string[][] = [];
  let at = 0;
  const it = {
    async next(): Promise<IteratorResult<string[]>> {
      while (at >= pending.length) {
        const batch = await batches.next();
        if (batch.done) return { done: true, value: undefined };
        pending = batch.value;
        at = 0;
      }
      return { done: false, value: pending[at++] as string[] };
    },
  };
  const first = await it.next();
  if (first.done) throw new UsageError(`${named(source, true)} holds no rows.`);
  let header = first.value;
  const sample: string[][] = [];
  const synthesized = looksLikeData(header);
  if (synthesized) {
    sample.push(header);
    header = header.length === 1 && kindHint ? [kindHint] : header.map((_, i) => `column${i + 1}`);
  }
  header = uniqueNames(header);
  const width = header.length;
  const fit = (row: string[]): string[] => (row.length === width ? row : row.length > width ? row.slice(0, width) : [...row, ...Array<string>(width - row.length).fill('')]);
  while (sample.length < SAMPLE_ROWS) {
    const next = await it.next();
    if (next.done) break;
    sample.push(next.value);
  }
  const buffered = sample.map(fit);
  async function* rows(): AsyncGenerator<string[]> {
    try {
      yield* buffered;
      while (at < pending.length) yield fit(pending[at++] as string[]);
      for await (const batch of batches) for (const row of batch) yield fit(row);
    } finally {
      await batches.return(undefined);
    }
  }
  return { header, headerSynthesized: synthesized, sample: buffered, rows: rows() };
}

/**
 * Counts data rows with a non-blank value in column `index`, streaming the file once (opened, like
 * every user file, through the one input opener: an unreadable file is a usage error naming `--input`).
 */
export async function countValues(ports: InputPorts, source: string, index: number, kindHint?: string): Promise<{ rows: number; values: number }> {
  const input = await readCsv(await openInput(ports, source, '--input', { kind: 'CSV' }), source, kindHint);
  let rows = 0;
  let values = 0;
  for await (const row of input.rows) {
    rows++;
    if ((row[index] ?? '').trim() !== '') values++;
  }
  return { rows, values };
}

/** Copies stdin to a private temporary file so it can be read twice; `cleanup` removes it. */
export async function spoolStdin(ports: InputPorts): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const stdin = await openInput(ports, '-', '--input', { kind: 'CSV' });
  const dir = await mkdtemp(join(tmpdir(), 'creators-stdin-'));
  const path = join(dir, 'input.csv');
  await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
