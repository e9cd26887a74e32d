import { maskSecret } from '../config.js';
import { UsageError } from '../errors.js';
import type { ColumnSpec } from '../output/types.js';

/** `none` (when `allowNone`) is no expiry (null); undefined when the flag was not given. */
export function parseExpiry(raw: string | undefined, allowNone: boolean): string | null | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (allowNone && text.toLowerCase() === 'none') return null;
  const iso = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
  const ms = Date.parse(text);
  if (!iso.test(text) || Number.isNaN(ms)) {
    throw new UsageError(`Invalid --expires-at '${text}': expected an ISO 8601 date or time such as 2027-01-31 or 2027-01-31T12:00:00Z${allowNone ? ", or 'none'" : ''}.`);
  }
  return new Date(ms).toISOString();
}

/** Key values are masked in every format unless `--show-token`. */
export function maskKey<T extends Record<string, unknown>>(record: T, show: boolean): T {
  if (show || typeof record.token !== 'string') return record;
  return { ...record, token: maskSecret(record.token) };
}

export const KEY_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number', keep: true },
  { path: 'name', header: 'Name', kind: 'text' },
  { path: 'token', header: 'Key', keep: true },
  { path: 'active', header: 'Active', kind: 'bool' },
  { path: 'expires_at', header: 'Expires', kind: 'date', priority: -1 },
  { path: 'last_used_at', header: 'Last used', kind: 'date', priority: -1 },
  { path: 'created_at', header: 'Created', kind: 'date', priority: -2 },
];
