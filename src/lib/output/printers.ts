/**
 * Printers: records and a column spec in, text out through a sink. Machine formats (json, jsonl, csv,
 * tsv) stream; a terminal table buffers (it needs every row to size its columns). Nothing here knows
 * about HTTP. The sink is committed only after everything was written, so with `-o` a failed run leaves
 * no file behind. Here: the entry points and the json/jsonl framing; csv/tsv lists are in
 * delimited-printers.ts, the terminal's tables in terminal-printers.ts.
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

export { isTerminalTable } from './terminal-printers.js';

/** Opens the sink, runs `body`, commits; on any error aborts the sink and rethrows the error unchanged. */
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

/** Pretty JSON of a record indented by two more spaces, as an element of a pretty-printed array. */
function arrayElement(record: unknown): string {
  return jsonText(record, 2).replace(/^/gm, '  ');
}

/**
 * Prints a list of records and returns how many there were.
 * - `json`: one JSON array, streamed record by record (byte-identical to `JSON.stringify(list, null, 2)`,
 *   C1 controls escaped as `\u0080`...);
 * - `jsonl`: one compact record per line;
 * - `csv`/`tsv`: header then flattened rows. Columns are `--fields` when given, else the union of the
 *   flattened keys of the first 100 records (buffered, then streamed): a key that first appears later
 *   is left out, with a warning on stderr (unless `--quiet`). An empty list without `--fields` prints nothing;
 *   the header is never written before the first record (or the end of a list that succeeded empty), so a
 *   source that fails at once leaves stdout empty;
 * - `table` on a terminal: a bordered table of `columns` (or `--fields`), humanised and fitted to the
 *   width; an empty list prints nothing and returns 0 (the caller prints a notice);
 * - `table` otherwise (piped or `-o`): tab-separated raw rows, no header, no borders (like `gh`).
 * If `records` throws, the sink is aborted (no file appears with `-o`) and the error is rethrown as is.
 */
export async function printList(
  io: Terminal,
  settings: OutputSettings,
  records: AsyncIterable<DataRecord> | Iterable<DataRecord>,
  columns: ColumnSpec[],
): Promise<number> {
  // A --fields path no record has is said once the list is out.
  const check = FieldsCheck.for(settings);
  if (check !== undefined) records = check.watch(records);
  // Notes about the output (columns left out) come after it, below the table (and after the pager).
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
        return printDelimited(io, sink, settings, records, explicitColumns(settings, columns, false), true, notes, columns);
    }
  });
  // Within a screen paged once (pageOnce), after the whole screen.
  const shared = settings.pager?.shared;
  if (shared !== undefined) shared.after.push(...notes);
  else for (const note of notes) note();
  check?.warn(io);
  return count;
}

/**
 * Prints csv/tsv rows whose columns are known up front, `toValues` giving each row's values in `columns`
 * order: a header line, then one line per row. `--fields` picks and orders columns by name (a name not in `columns` is
 * an empty column). Used where every row has the same layout (bulk enrichment): no object of named
 * cells is built per row, which the general printer needs and which cost more than the rest of the line.
 * Returns how many rows there were; like `printList`, a throw from `rows` aborts the sink.
 */
export async function printRows<T>(
  io: Terminal,
  settings: OutputSettings & { format: 'csv' | 'tsv' },
  columns: readonly string[],
  rows: AsyncIterable<T> | Iterable<T>,
  toValues: (row: T) => readonly FlatValue[],
): Promise<number> {
  const check = FieldsCheck.for(settings);
  const count = await withSink(io, settings, async (sink) => {
    const encode = await lineEncoder(settings);
    const batch = new LineBatch(sink);
    const picked = pickedFields(settings);
    // A name listed twice (an input column named like an output column) picks the later, the run's own.
    const index = picked?.map((name) => columns.lastIndexOf(name));
    // The header waits for the first row (or the end): stdout cannot take back a header written before
    // an error, and a header alone would read as an empty answer.
    const header = encode(picked ?? columns);
    const values: FlatValue[] = [];
    let count = 0;
    for await (const item of rows) {
      if (count === 0) await batch.add(header);
      count++;
      const row = toValues(item);
      if (index === undefined) {
        await batch.add(encode(row));
        continue;
      }
      values.length = index.length;
      for (let i = 0; i < index.length; i++) values[i] = (row[index[i] as number] ?? null) as FlatValue;
      await batch.add(encode(values));
    }
    if (count === 0) await batch.add(header);
    await batch.flush();
    return count;
  });
  // Every row has the same columns: a --fields name that is not one of them is empty in all.
  if (count > 0) check?.seePaths(columns, (field) => columns.includes(field));
  check?.warn(io);
  return count;
}

/**
 * Prints json/jsonl rows that write their own JSON text (`toJson(row, indent)`), where a record must keep
 * a key order a JS object cannot (bulk enrichment's input columns: `OrderedJson`). The framing is
 * `printList`'s: `json` one array, each element indented two more spaces; `jsonl` one line per row.
 * Returns how many rows there were; a throw from `rows` aborts the sink.
 */
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

/**
 * A terminal view of one record (a creator card, lib/output/card.ts): its text fitted to `width`, or
 * undefined to fall back to the key/value table.
 */
export type TerminalView = (record: DataRecord, layout: { width: number; color: boolean; unicode: boolean }) => string | undefined;

/**
 * Prints one record: `json` pretty, `jsonl` one line, `csv`/`tsv` header and one row (all flattened
 * keys, or `--fields`); `table` on a terminal the `view` (a card) when given and no `--fields`, else a
 * two-column key/value table of `columns` (humanised), `--fields`, or else every flattened key; `table`
 * piped or to a file `key<TAB>value` lines, raw.
 */
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
            ? view(record, { width: io.columns !== undefined && io.columns > 0 ? io.columns : DEFAULT_COLUMNS, color: settings.color, unicode: settings.unicode ?? false })
            : undefined;
        await sink.write(shown ?? (await keyValueText(io, settings, record, columns)));
      }
    }
  });
  check?.warn(io);
}

/**
 * Prints raw text (a completion script, a non-JSON API body) to the sink, exactly as given: no newline
 * is added. With `-o`, the file is written atomically like any other output.
 */
export async function printText(io: Terminal, settings: OutputSettings, text: string): Promise<void> {
  await withSink(io, settings, (sink) => sink.write(text));
}

/**
 * Copies a body the server sent (a CSV export) byte for byte to stdout or the `-o` file; if the body
 * breaks off, the file is not committed.
 */
export async function printBytes(io: Terminal, settings: OutputSettings, body: AsyncIterable<Uint8Array | string>): Promise<void> {
  await withSink(io, settings, async (sink) => {
    for await (const chunk of body) await sink.writeBytes(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
}
