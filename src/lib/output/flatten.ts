/** Dot paths into records: reading one, flattening for csv/tsv/table, `--fields` for json/jsonl. */
import { isExactNumber, stringifyJson } from '../exact-json.js';
import type { DataRecord } from './types.js';

/** `null` is an empty cell. */
export type FlatValue = string | number | boolean | null;

export type FlatRecord = Record<string, FlatValue>;

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A key that itself contains dots (CSV input columns like `profile.username`) is matched literally, longest first. */
export function getPath(record: unknown, path: string): unknown {
  if (path === '') return record;
  return walk(record, path);
}

/** Prefixes taken as substrings, not split-and-joined: this runs for every cell of every csv row. */
function walk(value: unknown, rest: string): unknown {
  if (!isContainer(value)) return undefined;
  let key = rest;
  for (;;) {
    let child: unknown;
    let found = false;
    if (Array.isArray(value)) {
      // Only a plain non-negative integer (one segment) indexes an array; `length` or `1.5` do not.
      if (/^\d+$/.test(key) && Number(key) < value.length) {
        child = value[Number(key)];
        found = true;
      }
    } else if (hasOwn(value, key)) {
      child = value[key];
      found = true;
    }
    if (found) return key.length === rest.length ? child : walk(child, rest.slice(key.length + 1));
    const dot = key.lastIndexOf('.');
    if (dot < 0) return undefined;
    key = key.slice(0, dot);
  }
}

function isPrimitiveLike(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value !== 'object' && typeof value !== 'function') ||
    isExactNumber(value)
  );
}

/** Arrays of primitives are joined with `; `; other arrays and objects become JSON text. */
export function toCell(value: unknown): FlatValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return null;
    default:
      break;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  // A number beyond what a double holds exactly (a 19-digit id, 1e400): its exact text.
  if (isExactNumber(value)) return value.toString();
  if (Array.isArray(value)) {
    // Joined only when the join can be split back: `["a; b","c"]` would read as three items.
    if (value.every(isPrimitiveLike)) {
      const items = value.map((item) => cellText(toCell(item)));
      if (!items.some((item) => item.includes('; '))) return items.join('; ');
    }
    return stringifyJson(value);
  }
  return stringifyJson(value);
}

export function cellText(value: FlatValue): string {
  return value === null ? '' : String(value);
}

/**
 * Nested objects become dot-path keys; an empty one keeps its key with an empty cell, so the column does not vanish.
 */
export function flattenRecord(record: DataRecord): FlatRecord {
  const out: FlatRecord = {};
  flattenInto(out, '', record);
  return out;
}

function flattenInto(out: FlatRecord, prefix: string, value: Record<string, unknown>): void {
  const keys = Object.keys(value);
  if (keys.length === 0 && prefix !== '') {
    define(out, prefix, null);
    return;
  }
  for (const key of keys) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const child = value[key];
    if (isPlainObject(child)) flattenInto(out, path, child);
    else define(out, path, toCell(child));
  }
}

/**
 * json/jsonl `--fields`: `profile.username,user_id` gives `{profile: {username}, user_id}`. A missing path is
 * omitted, never `null`: the output never claims the API sent a null it did not send. The input is never modified.
 */
export function selectFields(record: DataRecord, fields: readonly string[]): DataRecord {
  const out: DataRecord = {};
  // Containers this function built; anything else in `out` is a value shared with the record.
  const built = new WeakSet<object>([out]);
  for (const field of fields) {
    if (field === '') continue;
    const value = getPath(record, field);
    if (value === undefined) continue;
    setPath(out, built, record, field.split('.'), value);
  }
  return out;
}

function setPath(out: DataRecord, built: WeakSet<object>, source: unknown, segments: string[], value: unknown): void {
  let target: Record<string, unknown> | unknown[] = out;
  let from: unknown = source;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i] as string;
    // A literal dotted key in the source (`profile.username` as one key) is copied as that one key.
    const rest = segments.slice(i).join('.');
    if (isContainer(from) && !Array.isArray(from) && hasOwn(from, rest)) {
      assign(target, rest, value);
      return;
    }
    from = walk(from, key);
    const existing = read(target, key);
    if (isContainer(existing)) {
      // A value copied whole by a shorter field already holds this path.
      if (!built.has(existing)) return;
      target = existing;
      continue;
    }
    const next: Record<string, unknown> | unknown[] = Array.isArray(from) ? [] : {};
    built.add(next);
    assign(target, key, next);
    target = next;
  }
  assign(target, segments[segments.length - 1] as string, value);
}

function read(target: Record<string, unknown> | unknown[], key: string): unknown {
  if (Array.isArray(target)) return target[Number(key)];
  return hasOwn(target, key) ? target[key] : undefined;
}

function assign(target: Record<string, unknown> | unknown[], key: string, value: unknown): void {
  if (Array.isArray(target)) target[Number(key)] = value;
  else define(target, key, value);
}

/** Sets an own property even for a key named `__proto__` (JSON can carry one; plain `=` would set the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export async function* keyed<T>(key: string, values: AsyncIterable<T> | Iterable<T>): AsyncGenerator<DataRecord> {
  for await (const value of values) yield { [key]: value };
}
