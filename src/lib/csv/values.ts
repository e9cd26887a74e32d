/**
 * A file of creators read whole (exclusion handles, listening creators): the one reader's header rule and
 * column detection, so the CLI's own CSV output, a one-handle-per-line list and a CSV with a `handle` column
 * are read alike by every command. Blank and `#` lines are skipped.
 */
import { UsageError } from '../errors.js';
import { openInput, type InputPorts } from '../io/input.js';
import type { Notices } from '../io/terminal.js';
import { detectColumn, type ValueKind } from './detect.js';
import { readCsv, type CsvReadOptions } from './read.js';

export interface ColumnValue {
  value: string;
  /** The row's `platform` cell, when the file has that column (the CLI's own listening output does). */
  platform?: string | undefined;
}

export interface ColumnValuesOptions {
  kind: ValueKind;
  csv?: CsvReadOptions | undefined;
  /** Also read each row's `platform` column. */
  platformColumn?: boolean | undefined;
}

export type ColumnValuesPorts = InputPorts & Partial<Pick<Notices, 'notice' | 'warn'>>;

export async function readColumnValues(
  ports: ColumnValuesPorts,
  source: string,
  flag: string,
  o: ColumnValuesOptions,
): Promise<ColumnValue[]> {
  const stream = await openInput(ports, source, flag);
  let read;
  try {
    read = await readCsv(stream, source, {
      ...o.csv,
      comments: true,
      kindHint: o.kind,
      notice: ports.notice?.bind(ports),
    });
  } catch (err) {
    // An empty file is a list of no creators.
    if (err instanceof UsageError && /holds no rows/.test(err.message)) return [];
    throw err;
  }
  const choice = detectColumn(read.header, read.sample, o.kind);
  if (choice.guessed)
    ports.warn?.(`No ${o.kind} column recognised in ${source}: using the first column, '${choice.name}'.`);
  const platformIndex = o.platformColumn ? read.header.findIndex((h) => h.trim().toLowerCase() === 'platform') : -1;
  const out: ColumnValue[] = [];
  for await (const row of read.rows) {
    const value = (row[choice.index] ?? '').trim();
    if (!value || value.startsWith('#')) continue;
    const platform = platformIndex >= 0 ? (row[platformIndex] ?? '').trim() || undefined : undefined;
    out.push(platform === undefined ? { value } : { value, platform });
  }
  return out;
}
