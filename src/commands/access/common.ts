import type { Context } from '../../app/context.js';
import { maskSecret } from '../../lib/config.js';
import { guardCost } from '../../app/legacy.js';
import { UsageError } from '../../lib/errors.js';
import { buildUrl } from '../../lib/http/url.js';
import type { ColumnSpec } from '../../lib/output/index.js';

/** Key and app ids are positive integers, checked before anything is sent (shared with listening/events). */
export { positiveId } from '../../lib/ids.js';

/** An ISO 8601 date or date-time, normalised to UTC ISO; `none` (when allowed) means no expiry. */
export function parseExpiry(raw: unknown, allowNone: boolean): string | null | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
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
  { path: 'id', header: 'ID', kind: 'number' },
  { path: 'name', header: 'Name' },
  { path: 'token', header: 'Key' },
  { path: 'active', header: 'Active', kind: 'bool' },
  { path: 'expires_at', header: 'Expires', kind: 'date' },
  { path: 'last_used_at', header: 'Last used', kind: 'date' },
  { path: 'created_at', header: 'Created', kind: 'date' },
];

/**
 * The `--dry-run` gate for free but mutating requests: prints the plan and returns false under
 * `--dry-run` (nothing is sent), true otherwise.
 */
export async function planFree(ctx: Context, method: string, path: string, body?: unknown): Promise<boolean> {
  const url = buildUrl(await ctx.baseUrl(), path).href;
  return guardCost(ctx, { method, url, body, worstCaseMilli: 0, costBasis: 'free' });
}
