/** Which columns a csv/tsv/table output has, and what goes in each cell. */
import { cellText, flattenRecord, getPath, toCell, type FlatRecord, type FlatValue } from './flatten.js';
import { humanCount, humanDate, percent, toNumber } from './humanize.js';
import { countText } from '../words.js';
import type { ColumnSpec, DataRecord, OutputSettings } from './types.js';

export interface Column {
  path: string;
  header: string;
  kind: ColumnSpec['kind'] | undefined;
  inferred: boolean;
  keep?: boolean;
  priority?: number;
  whole?: boolean | undefined;
  wide?: boolean | undefined;
}

const COPY_NAME = /(^|\.)(id|[a-z]+_id|username|handle|token|email)$/;

/** Without a spec, a column named like an id is shown whole: it is there to be copied. */
export function keepsWhole(column: Column): boolean {
  return column.keep ?? COPY_NAME.test(column.path);
}

export const INFER_SAMPLE = 100;

export function pickedFields(settings: Pick<OutputSettings, 'fields'>): string[] | undefined {
  const fields = settings.fields?.filter((field) => field !== '');
  return fields !== undefined && fields.length > 0 ? fields : undefined;
}

/** `--fields`, or with `useSpecs` the command's specs; undefined means: infer from the records. */
export function explicitColumns(
  settings: Pick<OutputSettings, 'fields'>,
  specs: readonly ColumnSpec[] | undefined,
  useSpecs: boolean,
): Column[] | undefined {
  const fields = pickedFields(settings);
  if (fields !== undefined) {
    return fields.map((path) => {
      const spec = specs?.find((s) => s.path === path);
      // Asked for by name: shown even where the command's table would leave it out for width.
      return {
        path,
        header: path,
        kind: spec?.kind,
        inferred: false,
        keep: spec?.keep,
        priority: spec?.priority,
        whole: spec?.whole ?? spec?.wide,
      };
    });
  }
  if (useSpecs && specs !== undefined && specs.length > 0) {
    return specs.map((spec) => ({
      path: spec.path,
      header: spec.header ?? spec.path,
      kind: spec.kind,
      inferred: false,
      keep: spec.keep ?? false,
      priority: spec.priority,
      whole: spec.whole,
      wide: spec.wide,
    }));
  }
  return undefined;
}

export function inferColumns(sample: readonly FlatRecord[]): Column[] {
  const seen = new Set<string>();
  for (const flat of sample) for (const key of Object.keys(flat)) seen.add(key);
  return [...seen].map((path) => ({ path, header: path, kind: undefined, inferred: true }));
}

export class Row {
  private flatCache: FlatRecord | undefined;
  constructor(readonly record: DataRecord) {}
  get flat(): FlatRecord {
    this.flatCache ??= flattenRecord(this.record);
    return this.flatCache;
  }
  raw(column: Column): FlatValue {
    if (column.inferred)
      return Object.prototype.hasOwnProperty.call(this.flat, column.path) ? (this.flat[column.path] ?? null) : null;
    // A key that is the whole path is read directly: this runs for every cell of every row.
    if (Object.prototype.hasOwnProperty.call(this.record, column.path)) return toCell(this.record[column.path]);
    return toCell(getPath(this.record, column.path));
  }
  display(column: Column, options: { keyValue?: boolean } = {}): string {
    // A list of objects is named item by item, not shown as JSON (whichever way the column was found).
    const objects = column.kind === 'accounts' ? undefined : objectList(getPath(this.record, column.path));
    if (objects !== undefined) return shortList(objects);
    if (column.inferred) return genericText(this.raw(column), column.path, options.keyValue ?? false);
    if (column.kind === undefined)
      return genericText(toCell(getPath(this.record, column.path)), column.path, options.keyValue ?? false);
    return displayValue(getPath(this.record, column.path), column.kind);
  }
}

/** A full ISO-8601 date-time with its zone (`Z` or an offset); without one the instant would be a guess. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

const ID_NAME = /(^|[._])(id|pk)$|[a-z]Id$/;

/** Integers from this size up get thousands separators in a key/value table (a year such as 2026 does not). */
const SEPARATED_FROM = 10_000;

/** A cell of no declared kind: in a key/value table an integer gets separators unless its key names an id. */
export function genericText(value: FlatValue, path: string, keyValue: boolean): string {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return humanDate(value);
  if (
    keyValue &&
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    Math.abs(value) >= SEPARATED_FROM &&
    !ID_NAME.test(path)
  ) {
    return countText(value);
  }
  return cellText(value);
}

const ITEM_NAMES = ['name', 'title', 'label', 'username', 'handle', 'type', 'code', 'id'];

export function objectList(value: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) return undefined;
  return value as Record<string, unknown>[];
}

const SHORT_LIST = 5;

/** `a, b, c, d, e and 7 more` by name; when an item has no name field, nothing could stand for it: compact JSON. */
export function shortList(items: readonly Record<string, unknown>[]): string {
  const names = items.map((item) => {
    const key = ITEM_NAMES.find((k) => item[k] !== null && item[k] !== undefined && typeof item[k] !== 'object');
    return key === undefined ? undefined : String(item[key]);
  });
  if (names.some((n) => n === undefined)) return cellText(toCell(items));
  const head = names.slice(0, SHORT_LIST).join(', ');
  return names.length > SHORT_LIST ? `${head} and ${countText(names.length - SHORT_LIST)} more` : head;
}

export function displayValue(value: unknown, kind: ColumnSpec['kind'] | undefined): string {
  if (value === null || value === undefined) return '';
  const objects = kind === 'accounts' ? undefined : objectList(value);
  if (objects !== undefined) return shortList(objects);
  switch (kind) {
    case 'count':
      return toNumber(value) === undefined ? cellText(toCell(value)) : humanCount(value);
    case 'percent':
      return toNumber(value) === undefined ? cellText(toCell(value)) : percent(value);
    case 'date':
      return typeof value === 'object' && !(value instanceof Date) ? cellText(toCell(value)) : humanDate(value);
    case 'accounts':
      if (!Array.isArray(value)) return cellText(toCell(value));
      return value
        .map((a: unknown) => {
          const o = a && typeof a === 'object' ? (a as Record<string, unknown>) : undefined;
          const handle = o ? (o.handle ?? o.username) : a;
          return cellText(
            toCell(
              o?.platform !== undefined && o.platform !== null
                ? `${String(o.platform)}:${String(handle ?? '')}`
                : handle,
            ),
          );
        })
        .join(', ');
    case 'bool':
      if (value === true || value === 'true') return 'yes';
      if (value === false || value === 'false') return 'no';
      return cellText(toCell(value));
    default:
      return cellText(toCell(value));
  }
}

export function isNumericKind(kind: ColumnSpec['kind'] | undefined): boolean {
  return kind === 'count' || kind === 'number' || kind === 'percent';
}

/** A dictionary's columns: the first entry's plain fields, six at most. */
export function dictionaryColumns(first: Record<string, unknown> | undefined): ColumnSpec[] {
  if (!first) return [{ path: 'value', header: 'value' }];
  return Object.entries(first)
    .filter(([, v]) => v === null || typeof v !== 'object' || Array.isArray(v))
    .slice(0, 6)
    .map(([k, v]) => ({ path: k, header: k, kind: typeof v === 'number' ? 'number' : 'text' }));
}
