import { filterTypeOf, isListType } from '../../contract/filters.js';
import {
  ALL_FILTER_KEYS,
  CREATOR_HAS_TRUE_ONLY,
  FILTER_CATALOGUE,
  platformsWithFilter,
} from '../../contract/filter-catalogue.js';
import { shapeProblems } from './filter-shapes.js';
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import { closest } from '../output/fields-check.js';
import { FOLLOWER_KEYS, followerKeyOf } from '../../contract/followers.js';
import { UsageError } from '../errors.js';
import { type KeyValue, setPairs } from '../options.js';
import { withArticle } from '../output/humanize.js';

/** Never sent: `exclude_previous` was removed (400), `exclude_all` is deprecated. */
const FORBIDDEN: Record<string, string> = {
  exclude_previous: "'exclude_previous' was removed from the API (it answers 400).",
  exclude_all: "'exclude_all' is deprecated.",
};

export interface FilterInput {
  platform: string;
  /** The filters object given whole (`--filters`), checked to be one by its reader. */
  base?: Record<string, unknown> | undefined;
  /** Set over `base`, in order. */
  pairs?: readonly KeyValue[];
  aiSearch?: string | undefined;
  minFollowers?: number | undefined;
  maxFollowers?: number | undefined;
  excludeHandles?: readonly string[] | undefined;
  excludeLists?: readonly number[] | undefined;
  excludeDefaultList?: boolean;
  excludeAllLists?: boolean;
  unchecked?: boolean;
}

export interface BuiltFilters {
  filters: Record<string, unknown>;
  warnings: string[];
}

export function buildFilters(input: FilterInput): BuiltFilters {
  const warnings: string[] = [];
  const filters = setPairs(input.pairs ?? [], structuredClone(input.base ?? {}));
  for (const [key, why] of Object.entries(FORBIDDEN)) {
    if (key in filters)
      throw new UsageError(`${why} It is never sent.`, {
        hint: 'Use --exclude-handles, --exclude-list, --exclude-default-list or --exclude-all-lists.',
      });
  }
  if (input.aiSearch !== undefined) filters.ai_search = input.aiSearch;
  if (filters.ai_search !== undefined) {
    const text = typeof filters.ai_search === 'string' ? filters.ai_search.trim() : '';
    if (text.length < 3 || text.length > 150) throw new UsageError('filters.ai_search must be 3 to 150 characters.');
    filters.ai_search = text;
  }
  mapFollowers(input, filters, warnings);
  checkCatalogue(input.platform, filters, Boolean(input.unchecked), warnings);
  listTyped(filters);
  // At most MAX_EXCLUDE_HANDLES: the reader of the handles refuses more (readExcludeHandles).
  if (input.excludeHandles && input.excludeHandles.length > 0) filters.exclude_handles = [...input.excludeHandles];
  if (input.excludeLists && input.excludeLists.length > 0) filters.exclude_list = [...new Set(input.excludeLists)];
  if (input.excludeDefaultList) filters.exclude_default_list = true;
  if (input.excludeAllLists) filters.exclude_all_lists = true;
  return { filters, warnings };
}

/** A single value of a list-typed filter (api-contract §3.1), here or in `audience`, is sent as a one-item list, as
 * the service's serializer expects (a bare string may be refused). */
function listTyped(filters: Record<string, unknown>, prefix = ''): void {
  for (const [key, value] of Object.entries(filters)) {
    const path = prefix + key;
    if (value === null || value === undefined) continue;
    if (isListType(filterTypeOf(path)) && !Array.isArray(value)) filters[key] = [value];
    else if (path === 'audience' && typeof value === 'object' && !Array.isArray(value))
      listTyped(value as Record<string, unknown>, 'audience.');
  }
}

/**
 * The real API silently ignores a follower filter under another platform's key (src/contract/followers.ts), so it is
 * mapped.
 */
function mapFollowers(input: FilterInput, filters: Record<string, unknown>, warnings: string[]): void {
  const key = followerKeyOf(input.platform);
  const wantsBounds = input.minFollowers !== undefined || input.maxFollowers !== undefined;
  const foreign = FOLLOWER_KEYS.filter((k) => k !== key && k in filters);
  if (!key && (wantsBounds || foreign.length > 0)) {
    throw new UsageError(`${input.platform} has no follower-count filter.`, {
      hint: 'Drop --min-followers/--max-followers and follower filters.',
    });
  }
  if (!key) return;
  for (const k of foreign) {
    if (!(key in filters)) {
      filters[key] = filters[k];
      warnings.push(`'${k}' is not ${withArticle(input.platform)} filter; sent as '${key}'.`);
    } else {
      warnings.push(
        `'${k}' is not ${withArticle(input.platform)} filter and '${key}' is already set; '${k}' was dropped.`,
      );
    }
    delete filters[k];
  }
  if (!wantsBounds) return;
  const { minFollowers: min, maxFollowers: max } = input;
  const current = filters[key];
  const range: Record<string, unknown> =
    current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as object) } : {};
  if (min !== undefined) range.min = min;
  if (max !== undefined) range.max = max;
  filters[key] = range;
}

/** The service ignores a key it does not know, or one the platform lacks, at any level (`number_of_followers.minn`),
 * without a word, and the run then buys unfiltered results: refused (exit 2) unless `--unchecked-filters` (keys
 * added after this catalogue). */
function checkCatalogue(
  platform: string,
  filters: Record<string, unknown>,
  unchecked: boolean,
  warnings: string[],
): void {
  const known = FILTER_CATALOGUE[platform as DiscoveryPlatform];
  if (known === undefined) return;
  const sentUnchecked: string[] = [];
  const refuse = (key: string, message: string, hint: string): void => {
    if (unchecked) sentUnchecked.push(key);
    else
      throw new UsageError(message, { hint: `${hint} (--unchecked-filters sends keys the catalogue does not know.)` });
  };
  for (const key of Object.keys(filters)) {
    if (known.has(key)) continue;
    const others = platformsWithFilter(key);
    if (others.length > 0) {
      refuse(
        key,
        `'${key}' is not a filter on ${platform}: only ${others.join(', ')} ${others.length === 1 ? 'has' : 'have'} it.`,
        'Drop it, or choose that --platform.',
      );
      continue;
    }
    const near = closest(key, ALL_FILTER_KEYS);
    const where = near === undefined ? [] : platformsWithFilter(near);
    const nearText =
      near === undefined ? '' : ` Did you mean '${near}'${where.length === 6 ? '' : ` (${where.join(', ')})`}?`;
    refuse(
      key,
      `Unknown filter '${key}' for ${platform}.${nearText}`,
      `The ${platform} filter keys: creators help filters.`,
    );
  }
  // Every level below the keys: a sub-key or value the service does not read is ignored as silently.
  for (const p of shapeProblems(filters)) refuse(p.key, p.message, p.hint);
  const has = filters.creator_has;
  if (has && typeof has === 'object' && !Array.isArray(has)) {
    for (const [key, value] of Object.entries(has)) {
      if (CREATOR_HAS_TRUE_ONLY.includes(key) && value !== true) {
        warnings.push(
          `creator_has.${key}=${JSON.stringify(value)} has no effect: only true filters (creators with a website); leave it out to include everyone.`,
        );
      }
    }
  }
  if (sentUnchecked.length > 0) {
    warnings.push(
      `--unchecked-filters: sending ${sentUnchecked.map((k) => `'${k}'`).join(', ')}, not in the ${platform} filter catalogue; the service ignores a key it does not know, and the results are then unfiltered by it.`,
    );
  }
}
