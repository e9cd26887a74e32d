/**
 * csv, tsv and piped `table`: columns from `--fields`, or learnt from the first records (a later key is warned about).
 */
import type { Terminal } from '../io/terminal.js';
import { type Column, inferColumns, INFER_SAMPLE, Row } from './columns.js';
import { csvLineEncoder, tabLine, type LineEncoder } from './delimited.js';
import type { FlatValue } from './flatten.js';
import { LineBatch } from './line-batch.js';
import type { Sink } from './sink.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';

export async function lineEncoder(settings: OutputSettings): Promise<LineEncoder> {
  if (settings.format === 'csv' || settings.format === 'tsv') return csvLineEncoder(settings.format, settings);
  return tabLine;
}

export async function printDelimited(
  io: Terminal,
  sink: Sink,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
  fixed: Column[] | undefined,
  header: boolean,
  notes: (() => void)[],
  specs: readonly ColumnSpec[] = [],
): Promise<number> {
  const encode = await lineEncoder(settings);
  const batch = new LineBatch(sink);
  const write = (text: string): Promise<void> => batch.add(text);
  const values: FlatValue[] = [];
  const line = (row: Row, cols: Column[]): string => {
    values.length = cols.length;
    for (let i = 0; i < cols.length; i++) values[i] = row.raw(cols[i] as Column);
    return encode(values);
  };
  let cols = fixed;
  const sample: Row[] = [];
  const known = new Set<string>();
  const dropped = new Set<string>();
  const settle = async (): Promise<void> => {
    const inferred = inferColumns(sample.map((row) => row.flat));
    cols = inferred;
    for (const col of inferred) known.add(col.path);
    if (header) await write(encode(inferred.map((col) => col.header)));
    for (const row of sample.splice(0)) await write(line(row, inferred));
  };

  // The header waits for the first record (or the end): stdout cannot take it back if the first page fails.
  const fixedHeader = (): Promise<void> =>
    cols !== undefined && header ? write(encode(cols.map((col) => col.header))) : Promise.resolve();
  let count = 0;
  for await (const record of records) {
    if (count === 0 && fixed !== undefined) await fixedHeader();
    count++;
    const row = new Row(record);
    if (cols === undefined) {
      sample.push(row);
      if (sample.length >= INFER_SAMPLE) await settle();
      continue;
    }
    if (fixed === undefined) {
      for (const [key, value] of Object.entries(row.flat)) {
        if (!known.has(key) && value !== null && value !== '') dropped.add(key);
      }
    }
    await write(line(row, cols));
  }
  if (count === 0 && fixed !== undefined) await fixedHeader();
  if (cols === undefined && sample.length > 0) await settle();
  // An empty list still gets its header when the command knows its columns: CI jobs parse the file.
  if (cols === undefined && sample.length === 0 && header && specs.length > 0)
    await write(encode(specs.map((spec) => spec.path)));
  await batch.flush();
  if (dropped.size > 0 && !settings.quiet) notes.push(() => warnDropped(io, [...dropped]));
  return count;
}

/** Streaming csv cannot add a column after the header: said rather than dropped silently. */
function warnDropped(io: Terminal, names: string[]): void {
  const list = names.slice(0, 10).join(', ') + (names.length > 10 ? `, and ${names.length - 10} more` : '');
  io.warn(
    `fields first seen after the first ${INFER_SAMPLE} records were left out: ${list}; name them with --fields, or use --format jsonl`,
  );
}
