/** Helpers shared by the listening routes: paging like DRF's PageNumberPagination, bodies, ids. */
import { normalizeHandle } from '../../contract/handles.js';
import { intParam } from '../params.js';
import { ApiError, detail, errorText, fieldError, type FieldErrors, fieldErrors } from '../respond.js';
import type { RouteContext } from '../router.js';
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';
import { creatorKey } from './model.js';
import { EVENTS_PAGE_SIZE } from '../../contract/limits.js';

/**
 * One page of `items`: `{count, next, previous, results}` with absolute `next`/`previous` URLs that
 * keep the other query parameters. 400 for a bad `page`/`page_size`; 404 `Invalid page.` past the end.
 */
export function page<T>(
  ctx: RouteContext,
  items: Pick<readonly T[], 'length' | 'slice'>,
  view: (item: T) => unknown,
): Record<string, unknown> {
  const size = intParam(ctx.query, 'page_size', EVENTS_PAGE_SIZE.default, { min: 1, max: EVENTS_PAGE_SIZE.max });
  const number = intParam(ctx.query, 'page', 1, { min: 1 });
  const pages = Math.max(1, Math.ceil(items.length / size));
  if (number > pages) throw new ApiError(detail(404, 'Invalid page.'));
  const link = (n: number): string => {
    const url = new URL(ctx.path, ctx.baseUrl);
    for (const [k, v] of ctx.query) if (k !== 'page') url.searchParams.append(k, v);
    url.searchParams.set('page', String(n));
    return url.href;
  };
  return {
    count: items.length,
    next: number < pages ? link(number + 1) : null,
    previous: number > 1 ? link(number - 1) : null,
    results: items.slice((number - 1) * size, number * size).map(view),
  };
}

/** A positive integer id from the path, or the feature's 404. */
export function idParam(ctx: RouteContext, name: string, what: string): number {
  const raw = ctx.params[name] ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(errorText(404, `${what} not found.`));
  return id;
}

/** The JSON object body, or a 400. */
export function objectBody(ctx: RouteContext): Record<string, unknown> {
  const body = ctx.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(fieldErrors(400, { non_field_errors: ['Invalid data. Expected a dictionary.'] }));
  }
  return body as Record<string, unknown>;
}

export interface CreatorRef {
  key: string;
  platform: string;
  platform_id: string;
}

/**
 * `creators`: `[{platform, platform_id}]` (also `handle` for `platform_id`, or `"platform:handle"`
 * strings), 1 to 1000 entries; handles are normalised like the service does (lowercase, no `@`, URLs).
 */
export function creatorList(body: Record<string, unknown>, required: boolean): CreatorRef[] {
  const raw = body.creators;
  if (raw === undefined && !required) return [];
  if (!Array.isArray(raw) || (required && raw.length === 0)) {
    throw fieldError('creators', 'Expected a non-empty list of {"platform", "platform_id"} objects.');
  }
  if (raw.length > 1000) throw fieldError('creators', 'Ensure this field has no more than 1000 elements.');
  const errors: FieldErrors = {};
  const out: CreatorRef[] = [];
  raw.forEach((entry, i) => {
    let platform: unknown;
    let handle: unknown;
    if (typeof entry === 'string') [platform, handle] = entry.split(/:(.*)/s);
    else if (entry && typeof entry === 'object') {
      const e = entry as Record<string, unknown>;
      platform = e.platform;
      handle = e.platform_id ?? e.handle ?? e.username;
    }
    const p = typeof platform === 'string' ? platform.trim().toLowerCase() : '';
    const h = typeof handle === 'string' ? normalizeHandle(handle) : '';
    if (!(LISTENING_PLATFORMS as readonly string[]).includes(p)) {
      errors[String(i)] = [
        `"${String(platform)}" is not a valid platform. Use one of: ${LISTENING_PLATFORMS.join(', ')}.`,
      ];
    } else if (!h) {
      errors[String(i)] = ['A creator handle (platform_id) is required.'];
    } else {
      out.push({ key: creatorKey(p, h), platform: p, platform_id: h });
    }
  });
  if (Object.keys(errors).length > 0) throw new ApiError(fieldErrors(400, { creators: errors }));
  return out;
}

/** A required or optional non-empty string of at most 200 characters. */
export function nameField(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = body.name;
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !v.trim()) throw fieldError('name', 'This field is required.');
  if (v.length > 200) throw fieldError('name', 'Ensure this field has no more than 200 characters.');
  return v.trim();
}

/** Keys a route interprets itself are removed; the rest is kept and echoed back. */
export function extras(body: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !known.includes(k) && k !== 'id'));
}
