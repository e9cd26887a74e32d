/**
 * The eleven dictionary ("classifier") routes: all GET, all free, each answering a bare JSON
 * array (entry shapes: see data/dictionaries.ts). Every route takes `search` (case-insensitive;
 * prefix matches first, then substring matches), `offset` and `limit` (1-100). The routes the
 * real service pages (locations, brands, audience-*) default to 50 entries; the short lists
 * (languages, yt-topics, games, niche, sub-niche) return everything unless `limit` is given.
 */
import { cleanName } from '../data/brands.js';
import {
  AUDIENCE_BRAND_CATEGORIES,
  AUDIENCE_BRAND_NAMES,
  AUDIENCE_INTERESTS,
  AUDIENCE_LOCATIONS,
  BRANDS,
  GAMES,
  LANGUAGES,
  NICHES,
  SUB_NICHES,
  YT_TOPICS,
  locationsFor,
  type Brand,
  type YtTopic,
} from '../data/dictionaries.js';
import { normalizeHandle } from '../../contract/handles.js';
import { boolParam, intParam, stringParam } from '../params.js';
import { isDiscoveryPlatform } from '../../contract/platforms.js';
import { ApiError, errorText, json } from '../respond.js';
import type { Handler, RouteContext, Router } from '../router.js';

const BASE = '/public/v1/discovery/classifier';
const PAGED_DEFAULT = 50;

/** Keeps entries where a key starts with or contains `needle`; prefix hits come first. */
export function rankMatches<T>(entries: readonly T[], needle: string, keys: (entry: T) => string[]): T[] {
  const want = needle.toLowerCase();
  const prefix: T[] = [];
  const inner: T[] = [];
  for (const entry of entries) {
    const values = keys(entry).map((k) => k.toLowerCase());
    if (values.some((v) => v.startsWith(want))) prefix.push(entry);
    else if (values.some((v) => v.includes(want))) inner.push(entry);
  }
  return [...prefix, ...inner];
}

/** Applies `offset` and `limit` from the query (validated, 400 on bad values). */
function page<T>(ctx: RouteContext, entries: readonly T[], defaultLimit: number | undefined): T[] {
  const offset = intParam(ctx.query, 'offset', 0, { min: 0 });
  const limit = intParam(ctx.query, 'limit', defaultLimit, { min: 1, max: 100 });
  return entries.slice(offset, limit === undefined ? undefined : offset + limit);
}

/** A dictionary route over a fixed list, searched on the given keys. */
function listRoute<T>(entries: (ctx: RouteContext) => readonly T[], keys: (e: T) => string[], paged: boolean): Handler {
  return (ctx) => {
    const all = entries(ctx);
    const search = stringParam(ctx.query, 'search');
    const found = search === undefined ? all : rankMatches(all, search, keys);
    return json(page(ctx, found, paged ? PAGED_DEFAULT : undefined));
  };
}

/**
 * Brands: `exact=true` (the default) matches the brand's handle exactly (`@` and case ignored), and
 * nothing else; `exact=false` matches part of the cleaned (normalised) name, as the spec describes.
 */
const brands: Handler = (ctx) => {
  const search = stringParam(ctx.query, 'search');
  const exact = boolParam(ctx.query, 'exact', true);
  let found: readonly Brand[] = BRANDS;
  if (search !== undefined) {
    if (exact) {
      const handle = normalizeHandle(search);
      found = BRANDS.filter((b) => b.username === handle);
    } else {
      const part = cleanName(search);
      found = BRANDS.filter((b) => b.cleaned_name.includes(part));
    }
  }
  return json(page(ctx, found, PAGED_DEFAULT));
};

/** YouTube topics: a topic matches by its name (with all sub-topics) or through matching sub-topics. */
const ytTopics: Handler = (ctx) => {
  const search = stringParam(ctx.query, 'search')?.toLowerCase();
  let found: readonly YtTopic[] = YT_TOPICS;
  if (search !== undefined) {
    found = YT_TOPICS.flatMap((topic) => {
      if (topic.name.toLowerCase().includes(search)) return [topic];
      const subs = topic.sub_topics.filter((s) => s.name.toLowerCase().includes(search));
      return subs.length > 0 ? [{ ...topic, sub_topics: subs }] : [];
    });
  }
  return json(page(ctx, found, undefined));
};

const locations: Handler = (ctx) => {
  const platform = ctx.params.platform ?? '';
  if (!isDiscoveryPlatform(platform)) throw new ApiError(errorText(400, `Unsupported platform '${platform}'.`));
  return listRoute(
    () => locationsFor(platform),
    (l) => [l.name],
    true,
  )(ctx);
};

export function register(router: Router): void {
  router.get(
    `${BASE}/languages/`,
    listRoute(
      () => LANGUAGES,
      (l) => [l.name, l.abbr],
      false,
    ),
  );
  router.get(`${BASE}/locations/:platform/`, locations);
  router.get(`${BASE}/brands/`, brands);
  router.get(`${BASE}/yt-topics/`, ytTopics);
  router.get(
    `${BASE}/games/`,
    listRoute(
      () => GAMES,
      (g) => [g.name],
      false,
    ),
  );
  router.get(
    `${BASE}/audience-brand-categories/`,
    listRoute(
      () => AUDIENCE_BRAND_CATEGORIES,
      (c) => [c.name],
      true,
    ),
  );
  router.get(
    `${BASE}/audience-brand-names/`,
    listRoute(
      () => AUDIENCE_BRAND_NAMES,
      (b) => [b.name, b.username],
      true,
    ),
  );
  router.get(
    `${BASE}/audience-interests/`,
    listRoute(
      () => AUDIENCE_INTERESTS,
      (i) => [i.name],
      true,
    ),
  );
  router.get(
    `${BASE}/audience-locations/`,
    listRoute(
      () => AUDIENCE_LOCATIONS,
      (l) => [l.name],
      true,
    ),
  );
  router.get(
    `${BASE}/niche/`,
    listRoute(
      () => NICHES,
      (n) => [n.name],
      false,
    ),
  );
  router.get(
    `${BASE}/sub-niche/`,
    listRoute(
      () => SUB_NICHES,
      (s) => [s.name, s.niche],
      false,
    ),
  );
}
