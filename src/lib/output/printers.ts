/**
 * Printers: records and a column spec in, text out through a sink. Machine formats stream; a terminal table
 * buffers (it sizes its columns). The sink is committed only after everything was written, so with `-o` a
 * failed run leaves no file behind.
 */
import type { Terminal } from '../io/terminal.js';
import { explicitColumns, inferColumns, pickedFields, Row } from './columns.js';
import { jsonText } from './json-text.js';
import { selectFields, type FlatValue } from './flatten.js';
import { FieldsCheck } from './fields-check.js';
import { LineBatch } from './line-batch.js';
import { openSink, type Sink } from './sink.js';
import { DEFAULT_COLUMNS } from './table.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';
import { lineEncoder, printDelimited } from './delimited-printers.js';
import { isTerminalTable, keyValueText, printTerminalTable } from './terminal-printers.js';

async function withSink<T>(io: Terminal, settings: OutputSettings, body: (sink: Sink) => Promise<T>): Promise<T> {
  const sink = await openSink(io, settings);
  try {
    const result = await body(sink);
    await sink.commit();
    return result;
  } catch (err) {
    await sink.abort();
    throw err;
  }
}

function keepFields(record: DataRecord, settings: OutputSettings): DataRecord {
  const fields = pickedFields(settings);
  return fields !== undefined ? selectFields(record, fields) : record;
}

function arrayElement(record: unknown): string {
  return jsonText(record, 2).replace(/^/gm, '  ');
}

/**
 * Prints a list of records and returns how many there were. `json` streams one array byte-identical to
 * `JSON.stringify(list, null, 2)`; the csv/tsv header is never written before the first record, so a source
 * that fails at once leaves stdout empty; piped `table` is tab-separated raw rows without header (like `gh`).
 */
export async function printList(
  io: Terminal,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
  columns: ColumnSpec[],
): Promise<number> {
  const check = FieldsCheck.for(settings);
  if (check !== undefined) records = check.watch(records);
  const notes: (() => void)[] = [];
  const count = await withSink(io, settings, async (sink) => {
    switch (settings.format) {
      case 'json':
        return printJsonArray(sink, settings, records);
      case 'jsonl': {
        let count = 0;
        const batch = new LineBatch(sink);
        for await (const record of records) {
          await batch.add(`${jsonText(keepFields(record, settings))}\n`);
          count++;
        }
        await batch.flush();
        return count;
      }
      case 'table':
        if (isTerminalTable(io, settings)) return printTerminalTable(io, sink, settings, records, columns, notes);
        return printDelimited(io, sink, settings, records, explicitColumns(settings, columns, true), false, notes);
      default:
        return printDelimited(
          io,
          sink,
          settings,
          records,
          explicitColumns(settings, columns, false),
          true,
          notes,
          columns,
        );
    }
  });
  const shared = settings.pager?.shared;
  if (shared !== undefined) shared.after.push(...notes);
  else for (const note of notes) note();
  check?.warn(io);
  return count;
}

/**
 * csv/tsv rows whose columns are known up front (bulk enrichment): no object of named cells is built per row,
 * which cost more than the rest of the line. `--fields` picks and orders columns by name.
 */
export async function printRows<T>(
  io: Terminal,
  settings: OutputSettings & { format: 'csv' | 'tsv' },
  columns: readonly string[],
  rows: AsyncIterable<T> | Iterable<T>,
  toValues: (row: T) => readonly FlatValue[],
): Promise<number> {
  return printRowRuns(io, settings, columns, rows, false, toValues);
}

/** `printRows` over runs of rows, each run encoded into one text and written at once (one hop a run, not a row). */
export async function printRowBatches<T>(
  io: Terminal,
  settings: OutputSettings & { format: 'csv' | 'tsv' },
  columns: readonly string[],
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  toValues: (row: T) => readonly FlatValue[],
): Promise<number> {
  return printRowRuns(io, settings, columns, batches, true, toValues);
}

async function printRowRuns<T>(
  io: Terminal,
  settings: OutputSettings & { format: 'csv' | 'tsv' },
  columns: readonly string[],
  rows: AsyncIterable<T | readonly T[]> | Iterable<T | readonly T[]>,
  batched: boolean,
  toValues: (row: T) => readonly FlatValue[],
): Promise<number> {
  const check = FieldsCheck.for(settings);
  const count = await withSink(io, settings, async (sink) => {
    const encode = await lineEncoder(settings);
    const batch = new LineBatch(sink);
    const picked = pickedFields(settings);
    // A name listed twice (an input column named like an output column) picks the later, the run's own.
    const index = picked?.map((name) => columns.lastIndexOf(name));
    // The header waits for the first row (or the end): stdout cannot take back a header written before an error.
    const header = encode(picked ?? columns);
    const values: FlatValue[] = [];
    const line = (item: T): string => {
      const row = toValues(item);
      if (index === undefined) return encode(row);
      values.length = index.length;
      for (let i = 0; i < index.length; i++) values[i] = (row[index[i] as number] ?? null) as FlatValue;
      return encode(values);
    };
    let count = 0;
    for await (const got of rows) {
      if (!batched) {
        if (count === 0) await batch.add(header);
        count++;
        await batch.add(line(got as T));
        continue;
      }
      let text = '';
      for (const item of got as readonly T[]) {
        if (count === 0) text = header;
        count++;
        text += line(item);
      }
      if (text !== '') await batch.add(text);
    }
    if (count === 0) await batch.add(header);
    await batch.flush();
    return count;
  });
  if (count > 0) check?.seePaths(columns, (field) => columns.includes(field));
  check?.warn(io);
  return count;
}

/** json/jsonl rows that write their own JSON text, to keep a key order a JS object cannot (`OrderedJson`). */
export async function printJsonRows<T>(
  io: Terminal,
  settings: OutputSettings & { format: 'json' | 'jsonl' },
  rows: AsyncIterable<T> | Iterable<T>,
  toJson: (row: T, indent?: number) => string,
): Promise<number> {
  return withSink(io, settings, async (sink) => {
    let count = 0;
    if (settings.format === 'jsonl') {
      const batch = new LineBatch(sink);
      for await (const row of rows) {
        await batch.add(`${toJson(row)}\n`);
        count++;
      }
      await batch.flush();
      return count;
    }
    for await (const row of rows) {
      await sink.write(`${count === 0 ? '[\n' : ',\n'}${toJson(row, 2).replace(/^/gm, '  ')}`);
      count++;
    }
    await sink.write(count === 0 ? '[]\n' : '\n]\n');
    return count;
  });
}

async function printJsonArray(
  sink: Sink,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
): Promise<number> {
  let count = 0;
  for await (const record of records) {
    await sink.write(`${count === 0 ? '[\n' : ',\n'}${arrayElement(keepFields(record, settings))}`);
    count++;
  }
  await sink.write(count === 0 ? '[]\n' : '\n]\n');
  return count;
}

/** A terminal view of one record (a creator card), or undefined to fall back to the key/value table. */
export type TerminalView = (
  record: DataRecord,
  layout: { width: number; color: boolean; unicode: boolean },
) => string | undefined;

export async function printItem(
  io: Terminal,
  settings: OutputSettings,
  record: DataRecord,
  columns?: ColumnSpec[],
  view?: TerminalView,
): Promise<void> {
  const check = FieldsCheck.for(settings);
  check?.see(record);
  await withSink(io, settings, async (sink) => {
    switch (settings.format) {
      case 'json':
        await sink.write(`${jsonText(keepFields(record, settings), 2)}\n`);
        return;
      case 'jsonl':
        await sink.write(`${jsonText(keepFields(record, settings))}\n`);
        return;
      case 'csv':
      case 'tsv': {
        const row = new Row(record);
        const cols = explicitColumns(settings, columns, false) ?? inferColumns([row.flat]);
        const encode = await lineEncoder(settings);
        await sink.write(encode(cols.map((col) => col.header)) + encode(cols.map((col) => row.raw(col))));
        return;
      }
      default: {
        const shown =
          view !== undefined && isTerminalTable(io, settings) && pickedFields(settings) === undefined
            ? view(record, {
                width: io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_COLUMNS,
                color: settings.color,
                unicode: settings.unicode ?? false,
              })
            : undefined;
        await sink.write(shown ?? (await keyValueText(io, settings, record, columns)));
      }
    }
  });
  check?.warn(io);
}

/** Raw text exactly as given (no newline added). */
export async function printText(io: Terminal, settings: OutputSettings, text: string): Promise<void> {
  await withSink(io, settings, (sink) => sink.write(text));
}

/** A body the server sent, byte for byte; if it breaks off, the file is not committed. */
export async function printBytes(
  io: Terminal,
  settings: OutputSettings,
  body: AsyncIterable<Uint8Array | string>,
): Promise<void> {
  await withSink(io, settings, async (sink) => {
    for await (const chunk of body)
      await sink.writeBytes(
        typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength),
      );
  });
}
