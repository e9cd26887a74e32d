/** Ids are positive integers, checked before sending: a typo is a usage error (exit 2), not a server 404 (exit 1). */
import { UsageError } from './errors.js';
import { pathSegment } from './http/url.js';

export function positiveId(raw: string | undefined, what: string): string {
  const value = (raw ?? '').trim();
  if (!/^[1-9]\d{0,17}$/.test(value))
    throw new UsageError(`Invalid ${what} '${raw ?? ''}': expected a positive integer.`);
  return pathSegment(value, what);
}
