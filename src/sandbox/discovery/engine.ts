/**
 * Discovery search and Similar creators over `state.creators`: filter, exclude, sort, page, then
 * check the daily limit and the fair-use cap, charge per creator returned (nothing for an empty
 * page) and render `{total, limit, credits_left, accounts}` (api-contract §3/§4).
 */
import type { Creator } from '../data/creators.js';
import { normalizeHandle } from '../../contract/handles.js';
import { CHARGED_MILLI } from '../../contract/prices.js';
import { charge } from '../ledger.js';
import { GROWTH_PLATFORMS as GROWTH, type DiscoveryPlatform } from '../../contract/platforms.js';
import { ApiError, errorText, fieldError, json, type Reply } from '../respond.js';
import type { SandboxState } from '../state.js';
import { compileFilters, type Matcher } from './filters.js';
import { checkDiscoveryLimits, recordDiscoveryUse } from './limits.js';
import { mapBrief } from './nlp.js';
import {
  exclusionsOf,
  filtersOf,
  lookalikesOf,
  objectBody,
  pagingOf,
  platformOf,
  refuseRemoved,
  type Paging,
} from './request.js';
import { DISCOVERY_RESULT_CAP } from '../../contract/limits.js';

export const SORT_FIELDS = ['relevancy', 'engagement_rate', 'number_of_followers', 'growth_rate'] as const;
const GROWTH_PLATFORMS: readonly string[] = GROWTH;

/** `credits_left` is a string on the wire (api-contract §4), e.g. "999.50". */
function creditsLeft(state: SandboxState): string {
  const milli = state.ledger.balanceMilli;
  return (milli / 1000).toFixed(milli % 10 === 0 ? 2 : 3);
}

function accountOf(c: Creator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { username, full_name, picture, followers, engagement_percent } = c.profile;
  return {
    user_id: c.user_id,
    profile: { username, full_name, picture, followers, engagement_percent, url: c.url },
    ...extra,
  };
}

type Sort = { by: (typeof SORT_FIELDS)[number]; order: 'asc' | 'desc' } | undefined;

function sortOf(platform: DiscoveryPlatform, body: Record<string, unknown>): Sort {
  const s = body.sort;
  if (s === undefined || s === null) return undefined;
  if (typeof s !== 'object' || Array.isArray(s))
    throw fieldError('sort', 'Expected an object with sort_by and sort_order.');
  const { sort_by: by = 'relevancy', sort_order: order = 'desc' } = s as Record<string, unknown>;
  if (!(SORT_FIELDS as readonly unknown[]).includes(by))
    throw fieldError('sort', `"${String(by)}" is not a valid sort_by. Use one of: ${SORT_FIELDS.join(', ')}.`);
  if (order !== 'asc' && order !== 'desc') throw fieldError('sort', `"${String(order)}" is not a valid sort_order.`);
  if (by === 'relevancy' && order !== 'desc') throw fieldError('sort', 'relevancy can only be sorted desc.');
  if (by === 'growth_rate' && !GROWTH_PLATFORMS.includes(platform))
    throw fieldError('sort', `growth_rate is not available on ${platform}.`);
  if (by === 'number_of_followers' && platform === 'onlyfans')
    throw fieldError('sort', 'number_of_followers is not available on onlyfans.');
  return { by: by as (typeof SORT_FIELDS)[number], order };
}

function sortKey(by: NonNullable<Sort>['by'], c: Creator): number {
  if (by === 'engagement_rate') return c.profile.engagement_percent;
  if (by === 'number_of_followers') return c.profile.followers;
  return c.growth_rate;
}

interface Served {
  platform: DiscoveryPlatform;
  paging: Paging;
  /** Candidates in result order, already filtered. */
  results: readonly Creator[];
  priceMilli: number;
  route: string;
  render: (c: Creator) => Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** Pages, checks limits, charges and renders; shared by search and similar. */
function serve(state: SandboxState, s: Served): Reply {
  const reachable = s.results.slice(0, DISCOVERY_RESULT_CAP);
  const start = s.paging.index * s.paging.limit;
  const page = reachable.slice(start, start + s.paging.limit);
  const milli = page.length * s.priceMilli;
  const keys = page.map((c) => `${s.platform}:${c.profile.username}`);
  checkDiscoveryLimits(state, keys, milli);
  charge(state, s.route, milli, `${page.length} creators on ${s.platform}`);
  recordDiscoveryUse(state, keys, milli);
  return json({
    total: s.results.length,
    limit: s.paging.limit,
    credits_left: creditsLeft(state),
    accounts: page.map(s.render),
    ...s.extra,
  });
}

function passes(c: Creator, matchers: readonly Matcher[], excluded: ReadonlySet<string>): boolean {
  return !excluded.has(c.profile.username) && matchers.every((m) => m.test(c));
}

/** `POST /public/v1/discovery/` (`return_filter_values` query flag adds `matched_filters`). */
export function search(state: SandboxState, rawBody: unknown, returnFilterValues: boolean): Reply {
  const body = objectBody(rawBody);
  const explicit = filtersOf(body);
  refuseRemoved(body, explicit);
  const platform = platformOf(body);
  const paging = pagingOf(state, body);
  const sort = sortOf(platform, body);
  lookalikesOf(body);
  const brief = typeof body.nlp_search === 'string' && body.nlp_search.trim() ? body.nlp_search.trim() : undefined;
  // Filters set explicitly take precedence over what the brief maps to.
  const filters = brief ? { ...mapBrief(brief, platform), ...explicit } : explicit;
  const all = state.creators.list(platform);
  const matchers = compileFilters(platform, filters, all[0]);
  const excluded = exclusionsOf(state, platform, body, filters);
  let results = all.filter((c) => passes(c, matchers, excluded));
  if (sort && sort.by !== 'relevancy') {
    const dir = sort.order === 'asc' ? 1 : -1;
    results = [...results].sort((a, b) => dir * (sortKey(sort.by, a) - sortKey(sort.by, b)));
  }
  const render = returnFilterValues
    ? (c: Creator) => accountOf(c, { matched_filters: Object.fromEntries(matchers.map((m) => [m.key, m.value(c)])) })
    : (c: Creator) => accountOf(c);
  return serve(state, {
    platform,
    paging,
    results,
    priceMilli: returnFilterValues
      ? CHARGED_MILLI.discoveryPerCreatorWithFilterValues
      : CHARGED_MILLI.discoveryPerCreator,
    route: '/public/v1/discovery/',
    render,
    extra: brief ? { applied_filters: filters, nlp_search: brief } : undefined,
  });
}

/** How alike two creators are, 0..1: sub-niche, audience size, language, country, hashtags. */
export function similarity(a: Creator, b: Creator): number {
  const size = Math.max(0, 1 - Math.abs(Math.log10(a.profile.followers) - Math.log10(b.profile.followers)) / 3);
  const tagsA = new Set(a.hashtags);
  const shared = b.hashtags.filter((t) => tagsA.has(t)).length;
  const union = new Set([...a.hashtags, ...b.hashtags]).size || 1;
  const score =
    0.4 * (a.sub_niche === b.sub_niche ? 1 : 0) +
    0.25 * size +
    0.15 * (a.language === b.language ? 1 : 0) +
    0.1 * (a.location.country_code === b.location.country_code ? 1 : 0) +
    0.1 * (shared / union);
  return Math.round(score * 10_000) / 10_000;
}

/** `POST /public/v1/discovery/creators/similar/`: creators of the reference's niche, most similar first. */
export function similar(state: SandboxState, rawBody: unknown): Reply {
  const body = objectBody(rawBody);
  const filters = filtersOf(body);
  refuseRemoved(body, filters);
  const platform = platformOf(body);
  const key = body.filter_key;
  if (key !== 'url' && key !== 'username' && key !== 'id')
    throw fieldError('filter_key', 'Must be one of: url, username, id.');
  const value = typeof body.filter_value === 'string' ? body.filter_value.trim() : '';
  if (!value || value.length > 200)
    throw fieldError('filter_value', "Give the creator's URL, username or id (1-200 characters).");
  const paging = pagingOf(state, body);
  lookalikesOf(body);
  state.creators.list(platform);
  const reference =
    key === 'id' ? state.creators.find(platform, value) : state.creators.find(platform, normalizeHandle(value));
  if (!reference) throw new ApiError(errorText(404, 'Creator not found.'));
  const all = state.creators.list(platform);
  const matchers = compileFilters(platform, filters, all[0]);
  const excluded = exclusionsOf(state, platform, body, filters);
  const scored = all
    .filter((c) => c !== reference && c.niche === reference.niche && passes(c, matchers, excluded))
    .map((c) => ({ c, score: similarity(reference, c) }))
    .sort((x, y) => y.score - x.score);
  const scores = new Map(scored.map((s) => [s.c, s.score]));
  return serve(state, {
    platform,
    paging,
    results: scored.map((s) => s.c),
    priceMilli: CHARGED_MILLI.similarPerCreator,
    route: '/public/v1/discovery/creators/similar/',
    render: (c) => accountOf(c, { similarity_score: scores.get(c) }),
  });
}
