import { GROWTH_PLATFORMS as GROWTH } from '../../contract/platforms.js';
import { UsageError } from '../errors.js';
import type { SortSpec } from '../api/discovery.js';

/** `sort.sort_by` values the API accepts (api-contract §3). */
export const SORT_FIELDS = ['relevancy', 'engagement_rate', 'number_of_followers', 'growth_rate'] as const;
const GROWTH_PLATFORMS: readonly string[] = GROWTH;

/** Undefined when no sort was asked for (the API then ranks by relevancy); the direction is checked by the verb. */
export function checkSort(platform: string, by: string | undefined, dir: 'asc' | 'desc'): SortSpec | undefined {
  if (by === undefined) return undefined;
  const field = by.trim().toLowerCase();
  if (!(SORT_FIELDS as readonly string[]).includes(field)) {
    throw new UsageError(`Unknown sort '${by}'.`, { hint: `Use one of: ${SORT_FIELDS.join(', ')}.` });
  }
  if (field === 'relevancy' && dir !== 'desc')
    throw new UsageError('relevancy can only be sorted in descending order.');
  if (field === 'growth_rate' && !GROWTH_PLATFORMS.includes(platform)) {
    throw new UsageError(`Sorting by growth_rate is not available on ${platform}.`, {
      hint: `It works on ${GROWTH_PLATFORMS.join(', ')}.`,
    });
  }
  if (field === 'number_of_followers' && platform === 'onlyfans') {
    throw new UsageError('Sorting by number_of_followers is not available on onlyfans.');
  }
  return { sort_by: field, sort_order: dir };
}
