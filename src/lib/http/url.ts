import { UsageError } from '../errors.js';

export const DEFAULT_BASE_URL = 'https://api-dashboard.influencers.club';
export const API_PREFIX = '/public/v1/';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** Every route of the real service ends with a slash. */
export function apiPath(path: string): string {
  const [pathname, search] = splitOnce(path, '?');
  let p = pathname.trim();
  if (!p.startsWith('/')) p = `/${p}`;
  if (!p.startsWith(API_PREFIX) && p !== API_PREFIX.slice(0, -1)) p = `${API_PREFIX.slice(0, -1)}${p}`;
  if (!p.endsWith('/')) p = `${p}/`;
  p = p.replace(/\/{2,}/g, '/');
  return search === undefined ? p : `${p}?${search}`;
}

export function buildUrl(base: URL, path: string, query?: Query): URL {
  const url = new URL(base.href);
  const [pathname, search] = splitOnce(apiPath(path), '?');
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${pathname}`;
  if (search) url.search = search;
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.set(key, String(value));
  }
  return url;
}

/** Checks an id or platform before it goes into a path: no `..`, `/`, `?` or other surprises. */
export function pathSegment(value: string, what: string): string {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) {
    throw new UsageError(`Invalid ${what} '${value}': only letters, digits, '-' and '_' are allowed.`);
  }
  return value;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}
