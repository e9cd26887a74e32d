/**
 * What a bulk enrichment writes per row. Output keeps every input column, in input order, then the
 * result columns, then `credits_cost`, `status`, `error` and `source` (`api` or `store`).
 *
 * csv/tsv need their columns before the first row is written, while the service's result layout
 * varies per creator (and full results nest audience data hundreds of fields deep). So the result
 * columns are a FIXED, documented list per command and platform (identity and headline metrics of
 * the platform block), plus `result_json`, which holds the whole `result` as compact JSON: every
 * field the service returned is in the file, and the header never depends on the data. json/jsonl
 * keep `result` nested, unflattened; rows read from `--input` keep the input row nested under `input`
 * (`inputRowJson`), so no input column is lost to a run's field of the same name.
 */
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { stringifyJson } from '../exact-json.js';
import type { Terminal } from '../io/terminal.js';
import {
  getPath, OrderedJson, orderedJsonText, printJsonRows, printList, printRows, selectFields, toCell, type ColumnSpec, type DataRecord, type FlatValue, type OutputSettings,
} from '../output/index.js';

export type RowStatus = 'ok' | 'not_found' | 'error' | 'skipped';

export interface RowOutcome {
  /** The input row's cells, in input order. */
  cells: string[];
  status: RowStatus;
  error: string | null;
  creditsMilli: number;
  result: Record<string, unknown> | null;
  /** An `error` row whose request reached the server and whose answer was lost: it may have been charged. */
  maybeCharged?: boolean;
  /** Where an answered row's answer came from: `api` (bought now) or `store` (bought earlier, 0 credits now). */
  source?: RowSource | undefined;
}

export type RowSource = 'api' | 'store';

export const TRAILING_COLUMNS = ['credits_cost', 'status', 'error', 'source'] as const;

/** The fixed result columns of `enrich handle` for a platform. */
export function handleResultColumns(platform: string): string[] {
  const p = `result.${platform}`;
  return [`${p}.username`, `${p}.userid`, `${p}.full_name`, `${p}.follower_count`, `${p}.engagement_percent`, 'result.email', 'result_json'];
}

/** The fixed result columns of `enrich email`: the address's name and its accounts on the six Discovery platforms. */
export function emailResultColumns(): string[] {
  return ['result.email', 'result.full_name', 'result.platforms', ...DISCOVERY_PLATFORMS.flatMap((p) => [`result.${p}.username`, `result.${p}.follower_count`]), 'result_json'];
}

/** Terminal table columns: the value, the status and a few headline fields. */
export function tableColumns(valueColumn: string, kind: 'handle' | 'email', platform?: string): ColumnSpec[] {
  const head: ColumnSpec[] = [{ path: valueColumn, header: valueColumn, keep: true }, { path: 'status', header: 'status', whole: true, priority: 4 }];
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
  return [...head, ...mid, { path: 'credits_cost', header: 'credits', kind: 'number', priority: -3 }, { path: 'error', header: 'error', kind: 'text', priority: 3 }];
}

/** Sets an own data property; defineProperty only for `__proto__`, which plain assignment would not create (and is slow for every cell). */
function setOwn(out: DataRecord, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

function inputObject(header: readonly string[], cells: readonly string[]): DataRecord {
  const out: DataRecord = {};
  header.forEach((name, i) => setOwn(out, name, cells[i] ?? ''));
  return out;
}

/**
 * The record of a value given as an argument (one, or several), and of a terminal table's row: the
 * input columns, then `result` nested, `credits_cost`, `status`, `error`, `source` (a run's field wins over an
 * input column of the same name).
 */
export function nestedRecord(header: readonly string[], row: RowOutcome): DataRecord {
  return { ...inputObject(header, row.cells), result: row.result, credits_cost: row.creditsMilli / 1000, status: row.status, error: row.error, source: row.source ?? null };
}

/** The run's own fields of a row, beside `input` in `inputRowJson`. */
function runFields(row: RowOutcome): DataRecord {
  return { result: row.result, credits_cost: row.creditsMilli / 1000, status: row.status, error: row.error, source: row.source ?? null };
}

function inputJson(header: readonly string[], cells: readonly string[]): OrderedJson {
  return new OrderedJson(header.map((name, i) => [name, cells[i] ?? ''] as const));
}

/**
 * The json/jsonl record maker of rows read from `--input`: `{input, result, credits_cost, status, error, source}`,
 * where `input` holds every input column under its own name, in input order (an `OrderedJson`: a JS object
 * would put a column named `2024` first), so a column named `status`, `error`, `result` or
 * `credits_cost` never collides with the run's fields. `fields` (`--fields`) keeps dot paths in their
 * order: `input` (the whole row), `input.<column>` (the column named exactly so), and paths into the
 * run's fields (`status`, `result.email`), as `selectFields` does; a path that is not there is left out.
 */
export function inputRowJson(header: readonly string[], fields?: readonly string[]): (row: RowOutcome) => OrderedJson {
  if (fields === undefined) {
    return (row) => new OrderedJson([['input', inputJson(header, row.cells)], ...Object.entries(runFields(row))]);
  }
  // The field list is read once per run: which top-level keys, in which order, and which input columns.
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
        else if (picked.length > 0) entries.push(['input', new OrderedJson(picked.map((i) => [header[i] as string, row.cells[i] ?? ''] as const))]);
      } else if (Object.prototype.hasOwnProperty.call(chosen, key)) {
        entries.push([key, chosen[key]]);
      }
    }
    return new OrderedJson(entries);
  };
}

/** The csv/tsv columns of a run: input columns, result columns, then `credits_cost`, `status`, `error`, `source`. */
export function flatColumns(header: readonly string[], resultColumns: readonly string[]): string[] {
  return [...header, ...resultColumns, ...TRAILING_COLUMNS];
}

/**
 * The csv/tsv row maker of a run: a row's values in `flatColumns` order. Input cells are kept as they
 * are (an input column named like a result column keeps its own value); `result_json` is the whole
 * result. Each result column's path is split once here, not once per cell.
 */
export function flatValues(header: readonly string[], resultColumns: readonly string[]): (row: RowOutcome) => FlatValue[] {
  const width = header.length;
  const readers = resultColumns.map((column): ((result: Record<string, unknown> | null) => FlatValue) => {
    if (column === 'result_json') return (result) => (result ? stringifyJson(result) : null);
    const parts = column.split('.');
    return (result) => toCell(resultValue({ result }, column, parts));
  });
  return (row) => {
    const values: FlatValue[] = new Array<FlatValue>(width + readers.length + TRAILING_COLUMNS.length);
    const cells = row.cells;
    let at = 0;
    for (; at < width; at++) values[at] = cells[at] ?? '';
    for (const read of readers) values[at++] = read(row.result);
    values[at++] = row.creditsMilli / 1000;
    values[at++] = row.status;
    values[at++] = row.error;
    values[at] = row.source ?? null;
    return values;
  };
}

/**
 * Prints a run's rows in the output format: csv/tsv as flat rows of `flatColumns` (no object per row);
 * json/jsonl as `inputRowJson` records when `nestInput` (rows from `--input`), else as `nestedRecord`s;
 * tables as `nestedRecord`s (`tableColumns` for a terminal table). Returns the row count.
 */
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
    return printRows(io, { ...output, format }, flatColumns(header, resultColumns), rows, flatValues(header, resultColumns));
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

/**
 * The value of a result column: property by property along its dot path (`parts`) when every step is
 * an own key of a plain object (the service's usual shape), else the full dot-path lookup (`getPath`),
 * which also matches keys that contain dots and array indexes.
 */
function resultValue(wrapped: { result: unknown }, path: string, parts: readonly string[]): unknown {
  let value: unknown = wrapped;
  for (const part of parts) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, part)) {
      return getPath(wrapped, path);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
