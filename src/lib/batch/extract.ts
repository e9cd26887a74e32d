/** The user's CSV as the batch route takes it (one `handle` or `email` column, unique), streamed and hashed once. */
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { openInput, type InputPorts } from '../io/input.js';
import { detectColumn, type ColumnNames, type ValueKind } from '../csv/detect.js';
import { readCsv, type CsvReadOptions } from '../csv/read.js';
import type { Notices } from '../io/terminal.js';
import { csvLineEncoder } from '../output/delimited.js';
import { normalizeHandle } from '../../contract/handles.js';
import { BATCH_FILE_MB } from '../../contract/limits.js';

/** The service's limit per file in decimal megabytes, so the parts stay under either reading. */
export const MAX_PART_BYTES = BATCH_FILE_MB * 1_000_000;

const SAMPLE_ROWS = 20;

export interface BatchPart {
  path: string;
  rows: number;
  bytes: number;
}

export interface Extraction {
  kind: ValueKind;
  column: string;
  /** True when no header or content said which column: the first one was taken. */
  guessedColumn?: boolean;
  parts: BatchPart[];
  rows: number;
  blanks: number;
  duplicates: number;
  inputSha256: string;
  /** Removes the temporary part files. Never throws. */
  cleanup(): Promise<void>;
}

export interface ExtractOptions {
  kind: ValueKind;
  column?: string | undefined;
  maxPartBytes?: number;
  csv?: CsvReadOptions | undefined;
  named?: ColumnNames | undefined;
}

export async function extractBatchInput(
  ports: InputPorts & Partial<Pick<Notices, 'notice'>>,
  source: string,
  options: ExtractOptions,
): Promise<Extraction> {
  const input = await openInput(ports, source, 'input', { kind: 'CSV' });
  const hash = createHash('sha256');
  // Hashed as read: the batch journal keys on the input's bytes.
  const hashed = (async function* (): AsyncGenerator<Buffer | string> {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      hash.update(chunk);
      yield chunk;
    }
  })();

  const dir = await mkdtemp(join(tmpdir(), 'creators-batch-'));
  const cleanup = (): Promise<void> => rm(dir, { recursive: true, force: true }).catch(() => {});
  const limit = options.maxPartBytes ?? MAX_PART_BYTES;
  const parts: BatchPart[] = [];
  const seen = new Set<string>();
  let current: { handle: FileHandle; part: BatchPart; buffer: string[]; pending: number } | undefined;
  let blanks = 0;
  let duplicates = 0;
  let header = '';
  let guessed = false;
  const encode = await csvLineEncoder('csv');

  const flush = async (): Promise<void> => {
    if (!current || current.buffer.length === 0) return;
    await current.handle.write(current.buffer.join(''));
    current.buffer = [];
    current.pending = 0;
  };
  const closePart = async (): Promise<void> => {
    if (!current) return;
    await flush();
    await current.handle.close();
    current = undefined;
  };
  const add = async (value: string): Promise<void> => {
    const line = encode([value]);
    const size = Buffer.byteLength(line);
    if (current && current.part.bytes + size > limit) await closePart();
    if (!current) {
      const part: BatchPart = {
        path: join(dir, `part-${parts.length + 1}.csv`),
        rows: 0,
        bytes: Buffer.byteLength(header),
      };
      parts.push(part);
      current = { handle: await open(part.path, 'w', 0o600), part, buffer: [header], pending: 0 };
    }
    current.buffer.push(line);
    current.pending += size;
    current.part.bytes += size;
    current.part.rows += 1;
    if (current.pending > 256 * 1024) await flush();
  };

  let column = '';
  try {
    // The one reader: the same rules as `enrich --input`; the whole file is read (and a bad row refused) before any
    // upload.
    const csv = await readCsv(hashed, source, {
      ...options.csv,
      kindHint: options.kind,
      sampleRows: SAMPLE_ROWS,
      notice: ports.notice?.bind(ports),
    });
    const choice = detectColumn(csv.header, csv.sample, options.kind, options.column, options.named);
    column = choice.name;
    guessed = choice.guessed === true;
    header = `${options.kind}\n`;
    for await (const row of csv.rows) {
      const raw = (row[choice.index] ?? '').trim();
      if (raw === '') {
        blanks += 1;
        continue;
      }
      // One creator, one row: the service normalises handles (case, leading @, profile URLs) the same way.
      const key = options.kind === 'handle' ? normalizeHandle(raw) || raw.toLowerCase() : raw.toLowerCase();
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      seen.add(key);
      await add(raw);
    }
    await closePart();
  } catch (err) {
    await current?.handle.close().catch(() => {});
    await cleanup();
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read input '${source}': ${(err as Error).message}`);
  }
  if (parts.length === 0) {
    await cleanup();
    throw new UsageError(`No ${options.kind === 'email' ? 'emails' : 'handles'} in column '${column}' of '${source}'.`);
  }
  return {
    kind: options.kind,
    column,
    guessedColumn: guessed,
    parts,
    rows: seen.size,
    blanks,
    duplicates,
    inputSha256: hash.digest('hex'),
    cleanup,
  };
}
