import { maskSecret } from '../config.js';
import type { ColumnSpec } from '../output/types.js';

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
