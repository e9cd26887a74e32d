/**
 * Reading and checking a Discovery or Similar request body: platform, `paging: {limit, page}` (page
 * numbered from `config.pageBase`), `filters`, the removed `exclude_previous` (400), and the
 * exclusions from `exclude_handles` and exclusion lists.
 */
import { normalizeHandle } from '../../contract/handles.js';
import { isDiscoveryPlatform, type DiscoveryPlatform } from '../../contract/platforms.js';
import { ApiError, errorList, fieldError, fieldErrors } from '../respond.js';
import type { SandboxState } from '../state.js';
import { excludedByLists } from './exclusion-store.js';
import { DISCOVERY_PAGE_LIMIT, MAX_EXCLUDE_HANDLES } from '../../contract/limits.js';

export function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(errorList(400, ['Expected a JSON object.']));
  return body as Record<string, unknown>;
}

export function platformOf(body: Record<string, unknown>): DiscoveryPlatform {
  const p = body.platform;
  if (typeof p !== 'string' || !p) throw fieldError('platform', 'This field is required.');
  if (!isDiscoveryPlatform(p)) throw fieldError('platform', `"${p}" is not a valid choice.`);
  return p;
}

export interface Paging {
  limit: number;
  /** Zero-based index of the page, whatever the wire base. */
  index: number;
}

export function pagingOf(state: SandboxState, body: Record<string, unknown>): Paging {
  const base = state.config.pageBase;
  const raw = body.paging ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw fieldError('paging', 'Expected an object with limit and page.');
  const p = raw as Record<string, unknown>;
  const int = (name: string, value: unknown, fallback: number, min: number, max?: number): number => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value))
      throw new ApiError(fieldErrors(400, { paging: { [name]: ['A valid integer is required.'] } }));
    if (value < min)
      throw new ApiError(
        fieldErrors(400, { paging: { [name]: [`Ensure this value is greater than or equal to ${min}.`] } }),
      );
    if (max !== undefined && value > max)
      throw new ApiError(
        fieldErrors(400, { paging: { [name]: [`Ensure this value is less than or equal to ${max}.`] } }),
      );
    return value;
  };
  const limit = int('limit', p.limit, DISCOVERY_PAGE_LIMIT.default, 1, DISCOVERY_PAGE_LIMIT.max);
  const page = int('page', p.page, base, base);
  return { limit, index: page - base };
}

/** The removed parameter: 400 wherever it appears (top level or inside filters). */
export function refuseRemoved(body: Record<string, unknown>, filters: Record<string, unknown>): void {
  if ('exclude_previous' in body || 'exclude_previous' in filters) {
    throw fieldError(
      'exclude_previous',
      'This parameter was removed on 2026-03-12. Use exclude_handles or exclusion lists instead.',
    );
  }
}

export function filtersOf(body: Record<string, unknown>): Record<string, unknown> {
  const f = body.filters;
  if (f === undefined || f === null) return {};
  if (typeof f !== 'object' || Array.isArray(f)) throw fieldError('filters', 'Expected an object.');
  return f as Record<string, unknown>;
}

function handleList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw fieldError(field, 'Expected a list of handles.');
  if (value.length > MAX_EXCLUDE_HANDLES)
    throw fieldError(field, `Ensure this field has no more than ${MAX_EXCLUDE_HANDLES} elements.`);
  return value.filter((h): h is string => typeof h === 'string');
}

/**
 * Normalised handles to leave out: `exclude_handles` (top level or in filters; the deprecated
 * `exclude_all` is read the same way) plus the selected exclusion lists of the platform.
 * Unknown or other-platform list ids are skipped silently, as the real API does.
 */
export function exclusionsOf(
  state: SandboxState,
  platform: DiscoveryPlatform,
  body: Record<string, unknown>,
  filters: Record<string, unknown>,
): Set<string> {
  const handles = [
    ...handleList(body.exclude_handles, 'exclude_handles'),
    ...handleList(filters.exclude_handles, 'exclude_handles'),
    ...handleList(Array.isArray(filters.exclude_all) ? filters.exclude_all : undefined, 'exclude_all'),
  ];
  const out = excludedByLists(state, platform, {
    ids: Array.isArray(filters.exclude_list) ? filters.exclude_list.map(Number).filter(Number.isInteger) : [],
    useDefault: filters.exclude_default_list === true,
    all: filters.exclude_all_lists === true,
  });
  for (const h of handles) {
    const n = normalizeHandle(h);
    if (n) out.add(n);
  }
  return out;
}

/** `include_lookalikes` must be a boolean when given; returns its value (default false since 2026-02-25). */
export function lookalikesOf(body: Record<string, unknown>): boolean {
  const v = body.include_lookalikes;
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw fieldError('include_lookalikes', 'Must be a valid boolean.');
  return v;
}
