import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import { checkPlatform } from '../platforms.js';
import { DISCOVERY_PLATFORMS } from '../../contract/platforms.js';
import { freePlan, type Plan } from './plan.js';
import { recordOf } from './raw.js';

export const DICTIONARY_KINDS: Record<string, string> = {
  languages: 'discovery/classifier/languages',
  locations: 'discovery/classifier/locations/{platform}',
  brands: 'discovery/classifier/brands',
  'yt-topics': 'discovery/classifier/yt-topics',
  games: 'discovery/classifier/games',
  'audience-brand-categories': 'discovery/classifier/audience-brand-categories',
  'audience-brand-names': 'discovery/classifier/audience-brand-names',
  'audience-interests': 'discovery/classifier/audience-interests',
  'audience-locations': 'discovery/classifier/audience-locations',
  niches: 'discovery/classifier/niche',
  'sub-niches': 'discovery/classifier/sub-niche',
};

const KIND_ALIASES: Record<string, string> = { niche: 'niches', 'sub-niche': 'sub-niches', topics: 'yt-topics' };

export interface DictionaryQuery {
  kind: string;
  platform?: string | undefined;
  search?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  exact?: boolean | undefined;
}

export function dictionaryRequest(q: DictionaryQuery): { path: string; query: Record<string, string | undefined> } {
  const kind = KIND_ALIASES[q.kind] ?? q.kind;
  const route = DICTIONARY_KINDS[kind];
  if (!route) {
    throw new UsageError(`Unknown dictionary kind '${q.kind}'.`, {
      hint: `Kinds: ${Object.keys(DICTIONARY_KINDS).join(', ')}.`,
    });
  }
  let path = route;
  if (route.includes('{platform}')) {
    if (!q.platform) {
      // The verb asks for one first; a caller that gave none is told the platforms.
      throw new UsageError(`'${kind}' needs a platform.`, { hint: `One of: ${DISCOVERY_PLATFORMS.join(', ')}.` });
    }
    path = route.replace('{platform}', pathSegment(checkPlatform(q.platform, DISCOVERY_PLATFORMS), 'platform'));
  }
  const search = q.search?.trim();
  return {
    path,
    query: {
      search: search || undefined,
      limit: q.limit === undefined ? undefined : String(q.limit),
      offset: q.offset === undefined ? undefined : String(q.offset),
      exact: q.exact === undefined ? undefined : String(q.exact),
    },
  };
}

export function dictionaryPlan(q: DictionaryQuery): Plan {
  const { path, query } = dictionaryRequest(q);
  return { ...freePlan('GET', path, { query }), label: 'Looking up the dictionary…' };
}

export async function listDictionary(http: HttpClient, q: DictionaryQuery): Promise<Record<string, unknown>[]> {
  const res = await http.request<unknown>(dictionaryPlan(q));
  return entriesOf(res.data);
}

export function entriesOf(data: unknown): Record<string, unknown>[] {
  let list: unknown = data;
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    const env = list as Record<string, unknown>;
    list = env.results ?? env.data ?? env.items ?? env.entries ?? [list];
  }
  if (!Array.isArray(list)) return [];
  return list.map(recordOf);
}
