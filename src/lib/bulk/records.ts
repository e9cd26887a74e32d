/**
 * csv/tsv need their columns before the first row, while results vary per creator (full results nest hundreds
 * of fields): so the result columns are a fixed, documented list per command and platform, plus `result_json`
 * holding the whole result, and the header never depends on the data. json/jsonl keep the input row under
 * `input`, so no input column is lost to a run's field of the same name.
 */
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { JsonText, stringifyJson } from '../exact-json.js';
import type { Terminal } from '../io/terminal.js';
import {
  getPath,
  OrderedJson,
  orderedJsonText,
  printJsonRows,
  printList,
  printRowBatches,
  printRows,
  selectFields,
  toCell,
  type ColumnSpec,
  type DataRecord,
  type FlatValue,
  type OutputSettings,
} from '../output/index.js';

export type RowStatus = 'ok' | 'not_found' | 'error' | 'skipped';

export interface RowOutcome {
  cells: string[];
  status: RowStatus;
  error: string | null;
  creditsMilli: number;
  /** From the store, the exact text of the object when it was taken unparsed (written out as it is). */
  result: Record<string, unknown> | JsonText | null;
  /** An `error` row whose request reached the server and whose answer was lost: it may have been charged. */
  maybeCharged?: boolean;
  /** Where an answered row's answer came from: `api` (bought now) or `store` (bought earlier, 0 credits now). */
  source?: RowSource | undefined;
}

export type RowSource = 'api' | 'store';

export const TRAILING_COLUMNS = ['credits_cost', 'status', 'error', 'source'] as const;

export function handleResultColumns(platform: string): string[] {
  const p = `result.${platform}`;
  return [
    `${p}.username`,
    `${p}.userid`,
    `${p}.full_name`,
    `${p}.follower_count`,
    `${p}.engagement_percent`,
    'result.email',
    'result_json',
  ];
}

export function emailResultColumns(): string[] {
  return [
    'result.email',
    'result.full_name',
    'result.platforms',
    ...DISCOVERY_PLATFORMS.flatMap((p) => [`result.${p}.username`, `result.${p}.follower_count`]),
    'result_json',
  ];
}

export function tableColumns(valueColumn: string, kind: 'handle' | 'email', platform?: string): ColumnSpec[] {
  const head: ColumnSpec[] = [
    { path: valueColumn, header: valueColumn, keep: true },
    { path: 'status', header: 'status', whole: true, priority: 4 },
  ];
  // Priority: what gives way last is highest; the email and the URL are read whole or not at all.
  const mid: ColumnSpec[] =
    kind === 'handle' && platform
      ? [
          { path: `result.${platform}.full_name`, header: 'name', kind: 'text', priority: 2 },
          { path: `result.${platform}.follower_count`, header: 'followers', kind: 'count', priority: 3 },
          { path: `result.${platform}.engagement_percent`, header: 'engagement', kind: 'percent', priority: 1 },
          { path: 'result.email', header: 'email', whole: true, priority: 0 },
          { path: 'result.location.country', header: 'country', wide: true, priority: -1 },
          { path: `result.${platform}.profile_url`, header: 'profile', wide: true, priority: -2 },
        ]
      : [
          { path: 'result.full_name', header: 'name', kind: 'text', priority: 2 },
          { path: 'result.platforms', header: 'platforms', kind: 'text', priority: 1 },
        ];
  return [
    ...head,
    ...mid,
    { path: 'credits_cost', header: 'credits', kind: 'number', priority: -3 },
    { path: 'error', header: 'error', kind: 'text', priority: 3 },
  ];
}

/**
 * Sets an own data property; defineProperty only for `__proto__`, which plain assignment would not create (and is slow
 * for every cell).
 */
function setOwn(out: DataRecord, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

function inputObject(header: readonly string[], cells: readonly string[]): DataRecord {
  const out: DataRecord = {};
  header.forEach((name, i) => setOwn(out, name, cells[i] ?? ''));
  return out;
}

/** A run's field wins over an input column of the same name. */
export function nestedRecord(header: readonly string[], row: RowOutcome): DataRecord {
  return {
    ...inputObject(header, row.cells),
    result: resultOf(row),
    credits_cost: row.creditsMilli / 1000,
    status: row.status,
    error: row.error,
    source: row.source ?? null,
  };
}

/** The row's result as data (a stored text parsed). */
function resultOf(row: RowOutcome): Record<string, unknown> | null {
  return row.result instanceof JsonText ? (row.result.value() as Record<string, unknown>) : row.result;
}

function runFields(row: RowOutcome): DataRecord {
  return {
    result: resultOf(row),
    credits_cost: row.creditsMilli / 1000,
    status: row.status,
    error: row.error,
    source: row.source ?? null,
  };
}

function inputJson(header: readonly string[], cells: readonly string[]): OrderedJson {
  return new OrderedJson(header.map((name, i) => [name, cells[i] ?? ''] as const));
}

/**
 * `input` is an OrderedJson: a JS object would put a column named `2024` first. `--fields` may pick `input.<column>`.
 */
export function inputRowJson(header: readonly string[], fields?: readonly string[]): (row: RowOutcome) => OrderedJson {
  if (fields === undefined) {
    // A stored result's text is written as it is (the bytes it would be parsed and written again).
    return (row) =>
      new OrderedJson([
        ['input', inputJson(header, row.cells)],
        ['result', row.result],
        ['credits_cost', row.creditsMilli / 1000],
        ['status', row.status],
        ['error', row.error],
        ['source', row.source ?? null],
      ]);
  }
  const top: string[] = [];
  const own: string[] = [];
  const picked: number[] = [];
  let whole = false;
  for (const field of fields) {
    if (field === '') continue;
    const isInput = field === 'input' || field.startsWith('input.');
    const key = isInput ? 'input' : (field.split('.')[0] as string);
    if (!top.includes(key)) top.push(key);
    if (!isInput) own.push(field);
    else if (field === 'input') whole = true;
    else {
      const at = header.indexOf(field.slice('input.'.length));
      if (at >= 0 && !picked.includes(at)) picked.push(at);
    }
  }
  return (row) => {
    const chosen = selectFields(runFields(row), own);
    const entries: [string, unknown][] = [];
    for (const key of top) {
      if (key === 'input') {
        if (whole) entries.push(['input', inputJson(header, row.cells)]);
        else if (picked.length > 0)
          entries.push([
            'input',
            new OrderedJson(picked.map((i) => [header[i] as string, row.cells[i] ?? ''] as const)),
          ]);
      } else if (Object.prototype.hasOwnProperty.call(chosen, key)) {
        entries.push([key, chosen[key]]);
      }
    }
    return new OrderedJson(entries);
  };
}

export function flatColumns(header: readonly string[], resultColumns: readonly string[]): string[] {
  return [...header, ...resultColumns, ...TRAILING_COLUMNS];
}

/** An input column named like a result column keeps its own value; each path is split once, not once per cell. */
export function flatValues(
  header: readonly string[],
  resultColumns: readonly string[],
): (row: RowOutcome) => FlatValue[] {
  const width = header.length;
  const readers = resultColumns.map(
    (column): ((result: Record<string, unknown> | null, text: JsonText | undefined) => FlatValue) => {
      // A stored result's text is what stringifyJson would write of it.
      if (column === 'result_json') return (result, text) => text?.text ?? (result ? stringifyJson(result) : null);
      const parts = column.split('.');
      return (result) => toCell(resultValue({ result }, column, parts));
    },
  );
  return (row) => {
    const values: FlatValue[] = new Array<FlatValue>(width + readers.length + TRAILING_COLUMNS.length);
    const cells = row.cells;
    const text = row.result instanceof JsonText ? row.result : undefined;
    const result = resultOf(row);
    let at = 0;
    for (; at < width; at++) values[at] = cells[at] ?? '';
    for (const read of readers) values[at++] = read(result, text);
    values[at++] = row.creditsMilli / 1000;
    values[at++] = row.status;
    values[at++] = row.error;
    values[at] = row.source ?? null;
    return values;
  };
}

export async function printOutcomes(
  io: Terminal,
  output: OutputSettings,
  header: readonly string[],
  resultColumns: readonly string[],
  tableColumns: ColumnSpec[],
  rows: AsyncIterable<RowOutcome> | Iterable<RowOutcome>,
  nestInput = false,
): Promise<number> {
  const format = output.format;
  if (format === 'csv' || format === 'tsv') {
    return printRows(
      io,
      { ...output, format },
      flatColumns(header, resultColumns),
      rows,
      flatValues(header, resultColumns),
    );
  }
  if (nestInput && (format === 'json' || format === 'jsonl')) {
    const fields = output.fields?.filter((field) => field !== '');
    const record = inputRowJson(header, fields !== undefined && fields.length > 0 ? fields : undefined);
    return printJsonRows(io, { ...output, format }, rows, (row, indent) => orderedJsonText(record(row), indent));
  }
  const records = (async function* (): AsyncGenerator<DataRecord> {
    for await (const row of rows) yield nestedRecord(header, row);
  })();
  return printList(io, output, records, tableColumns);
}

/** `printOutcomes` over runs of rows in order (the runner's settled heads): csv/tsv writes each run as one text. */
export async function printOutcomeBatches(
  io: Terminal,
  output: OutputSettings,
  header: readonly string[],
  resultColumns: readonly string[],
  tableColumns: ColumnSpec[],
  batches: AsyncIterable<readonly RowOutcome[]>,
  nestInput = false,
): Promise<number> {
  const format = output.format;
  if (format === 'csv' || format === 'tsv') {
    return printRowBatches(
      io,
      { ...output, format },
      flatColumns(header, resultColumns),
      batches,
      flatValues(header, resultColumns),
    );
  }
  const rows = (async function* (): AsyncGenerator<RowOutcome> {
    for await (const batch of batches) yield* batch;
  })();
  return printOutcomes(io, output, header, resultColumns, tableColumns, rows, nestInput);
}

/** Own keys along `parts` (the service's usual shape), else `getPath`, which matches dotted keys and indexes. */
function resultValue(wrapped: { result: unknown }, path: string, parts: readonly string[]): unknown {
  let value: unknown = wrapped;
  for (const part of parts) {
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      !Object.prototype.hasOwnProperty.call(value, part)
    ) {
      return getPath(wrapped, path);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
