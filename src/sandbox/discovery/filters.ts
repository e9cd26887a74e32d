/**
 * The Discovery filter engine over the synthetic creators. Each known filter key (api-contract §3.1)
 * compiles to a matcher that tests a creator and reports the creator's value for `matched_filters`.
 * Like the real API, unknown keys at any level, and a follower filter under another platform's key, are
 * ignored without error (the CLI checks them before sending); a malformed range is a 400 in the service's nested shape.
 */
import type { Creator } from '../data/creators.js';
import { LANGUAGES } from '../data/dictionaries.js';
import { HANDLE_WORDS } from '../data/people.js';
import { filterTypeOf, isListType } from '../../contract/filters.js';
import { FOLLOWER_KEY } from '../../contract/followers.js';
import { FILTER_CATALOGUE } from '../../contract/filter-catalogue.js';
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import { ApiError, fieldErrors } from '../respond.js';

export interface Matcher {
  key: string;
  test(c: Creator): boolean;
  /** The creator's value for this filter, echoed in `matched_filters`. */
  value(c: Creator): unknown;
}

/** Housekeeping keys handled by the engine itself, not by matchers. */
export const HOUSEKEEPING = new Set([
  'exclude_handles',
  'exclude_list',
  'exclude_default_list',
  'exclude_all_lists',
  'exclude_role_based_emails',
  'exclude_all',
]);

interface Range {
  min?: number | undefined;
  max?: number | undefined;
}

function invalid(key: string, message: string): ApiError {
  return new ApiError(fieldErrors(400, { filters: { [key]: [message] } }));
}

/** `{min, max}`, or a bare number meaning a minimum. Other keys (`minn`, MCP's client-side `gte`/`lte`) are ignored,
 * as the service ignores them (api-contract §3.1: its canonical keys are min and max). */
function rangeOf(key: string, spec: unknown): Range | undefined {
  if (spec === null || spec === undefined) return undefined;
  if (typeof spec === 'number') return { min: spec };
  if (typeof spec !== 'object' || Array.isArray(spec)) throw invalid(key, 'Expected an object with min and/or max.');
  const o = spec as Record<string, unknown>;
  const read = (v: unknown): number | undefined => {
    if (v === null || v === undefined) return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(key, 'A valid number is required.');
    return n;
  };
  return { min: read(o.min), max: read(o.max) };
}

const inRange = (r: Range, v: number): boolean =>
  (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** A string or list of strings, lowercased; empty means "no filter". */
function listOf(spec: unknown): string[] {
  const items = Array.isArray(spec) ? spec : typeof spec === 'string' ? [spec] : [];
  return items
    .filter((x): x is string | number => typeof x === 'string' || typeof x === 'number')
    .map((x) => String(x).trim().toLowerCase())
    .filter(Boolean);
}

const langName = new Map(LANGUAGES.map((l) => [l.abbr, l.name.toLowerCase()]));
const bareTag = (t: string): string => t.replace(/^#/, '');

function rangeMatcher(key: string, spec: unknown, get: (c: Creator) => number): Matcher | undefined {
  const r = rangeOf(key, spec);
  if (!r || (r.min === undefined && r.max === undefined)) return undefined;
  return { key, test: (c) => inRange(r, get(c)), value: get };
}

function boolMatcher(key: string, spec: unknown, get: (c: Creator) => boolean): Matcher | undefined {
  if (typeof spec !== 'boolean') return undefined;
  return { key, test: (c) => get(c) === spec, value: get };
}

function anyOf(key: string, spec: unknown, get: (c: Creator) => string[], negate = false): Matcher | undefined {
  const want = listOf(spec);
  if (want.length === 0) return undefined;
  const hit = (c: Creator): boolean => get(c).some((v) => want.includes(v.toLowerCase()));
  return {
    key,
    test: (c) => hit(c) !== negate,
    value: (c) => (negate ? want : get(c).filter((v) => want.includes(v.toLowerCase()))),
  };
}

function textMatcher(key: string, spec: unknown, get: (c: Creator) => string, negate = false): Matcher | undefined {
  const words = listOf(spec);
  if (words.length === 0) return undefined;
  const hits = (c: Creator): string[] => words.filter((w) => get(c).toLowerCase().includes(w));
  return { key, test: (c) => hits(c).length > 0 !== negate, value: (c) => (negate ? [] : hits(c)) };
}

/** Words of an `ai_search` brief not worth matching (filler and the words every brief has). */
const FILLER = new Set([
  'the',
  'and',
  'for',
  'with',
  'who',
  'that',
  'are',
  'from',
  'creators',
  'creator',
  'influencers',
  'influencer',
  'about',
  'posts',
  'content',
  'people',
  'accounts',
  'into',
  'like',
  'love',
  'loves',
]);

/**
 * A word's stem, so "cooking", "cooks" and "cook" meet: a plural or verb ending is dropped (leaving at
 * least three letters) and a doubled last consonant halved ("running" -> "run", "travelling" -> "travel").
 * A rough stand-in for the service's semantic search, enough for a brief of ordinary words to find creators.
 */
export function stem(word: string): string {
  const ending = /(?:ing|ers|er|ies|es|ed|s)$/.exec(word);
  if (!ending || word.length - ending[0].length < 3) return word;
  let base = word.slice(0, -ending[0].length);
  if (ending[0] === 'ies') base += 'y';
  else if (/([b-df-hj-np-tv-z])\1$/.test(base) && base.length > 3) base = base.slice(0, -1);
  return base;
}

/** A brief's words worth matching (3+ letters, not filler), each with its stem. */
function briefWords(brief: string): Array<[word: string, stem: string]> {
  const words = brief
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !FILLER.has(w));
  return [...new Set(words)].map((w) => [w, stem(w)]);
}

/**
 * What an `ai_search` brief is matched against: the creator's names, bio, niche, sub-niche and hashtags,
 * plus the words of their niche's vocabulary (a Food & Drink creator is found for "cooking" or "kitchen").
 */
function searchText(c: Creator): string {
  const vocabulary = HANDLE_WORDS[c.niche] ?? [];
  return `${c.profile.username} ${c.profile.full_name} ${c.profile.bio} ${c.niche} ${c.sub_niche} ${c.hashtags.join(' ')} ${vocabulary.join(' ')}`.toLowerCase();
}

function aiSearch(spec: unknown): Matcher | undefined {
  if (typeof spec !== 'string') return undefined;
  const words = briefWords(spec);
  if (words.length === 0) return undefined;
  // matched_filters echoes the brief's words that matched, as written.
  const hits = (c: Creator): string[] => {
    const text = searchText(c);
    return words.filter(([, s]) => text.includes(s)).map(([w]) => w);
  };
  return { key: 'ai_search', test: (c) => hits(c).length > 0, value: hits };
}

function creatorHas(spec: unknown): Matcher | undefined {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  // Only `true` has an effect (service-spec: has_personal_website).
  const wanted = Object.entries(spec as Record<string, unknown>)
    .filter(([, v]) => v === true)
    .map(([k]) => k);
  if (wanted.length === 0) return undefined;
  const has = (c: Creator, k: string): boolean =>
    k === 'has_personal_website'
      ? c.has_personal_website
      : c.other_platforms.includes(k.replace(/^has_/, '').toLowerCase());
  return {
    key: 'creator_has',
    test: (c) => wanted.every((k) => has(c, k)),
    value: (c) => Object.fromEntries(wanted.map((k) => [k, has(c, k)])),
  };
}

/** A platform metric (`average_likes`, `topics`, `is_twitch_partner`...) compared by its type. */
function metricMatcher(key: string, spec: unknown, sample: unknown): Matcher | undefined {
  const get = (c: Creator): unknown => (c.metrics as unknown as Record<string, unknown>)[key];
  if (typeof sample === 'number') return rangeMatcher(key, spec, (c) => Number(get(c)));
  if (typeof sample === 'boolean') return boolMatcher(key, spec, (c) => Boolean(get(c)));
  if (Array.isArray(sample)) return anyOf(key, spec, (c) => (get(c) as string[]) ?? []);
  return undefined;
}

/** Python's name of a JSON value's type, as DRF's messages show it. */
function pythonType(value: unknown): string {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}

/**
 * Refuses a single value where the catalogue (src/contract/filters.ts) types a list, as the service's
 * serializer may: `"location": "Germany"` is a 400 in DRF's ListField words, nested like the field.
 */
export function checkListTypes(filters: Record<string, unknown>): void {
  const check = (value: unknown, path: string): string | undefined =>
    value !== null && value !== undefined && isListType(filterTypeOf(path)) && !Array.isArray(value)
      ? `Expected a list of items but got type "${pythonType(value)}".`
      : undefined;
  for (const [key, value] of Object.entries(filters)) {
    const message = check(value, key);
    if (message) throw new ApiError(fieldErrors(400, { filters: { [key]: [message] } }));
    if (key === 'audience' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [sub, v] of Object.entries(value)) {
        const m = check(v, `audience.${sub}`);
        if (m) throw new ApiError(fieldErrors(400, { filters: { audience: { [sub]: [m] } } }));
      }
    }
  }
}

/** Compiles a filters object for a platform into matchers (unknown keys ignored); a single value for a list-typed filter is a 400. */
export function compileFilters(
  platform: DiscoveryPlatform,
  filters: Record<string, unknown>,
  sample: Creator | undefined,
): Matcher[] {
  checkListTypes(filters);
  const out: (Matcher | undefined)[] = [];
  const followerKey = FOLLOWER_KEY[platform];
  for (const [key, spec] of Object.entries(filters)) {
    if (HOUSEKEEPING.has(key) || spec === null || spec === undefined) continue;
    if (key === followerKey) {
      out.push(rangeMatcher(key, spec, (c) => c.profile.followers));
      continue;
    }
    switch (key) {
      case 'engagement_percent':
        out.push(rangeMatcher(key, spec, (c) => c.profile.engagement_percent));
        break;
      case 'income': {
        const r = rangeOf(key, spec);
        if (r)
          out.push({
            key,
            test: (c) =>
              (r.min === undefined || c.income.max >= r.min) && (r.max === undefined || c.income.min <= r.max),
            value: (c) => c.income,
          });
        break;
      }
      case 'posting_frequency':
        out.push(rangeMatcher(key, spec, (c) => c.posting_frequency));
        break;
      case 'follower_growth':
      case 'subscriber_growth': {
        const pct =
          spec && typeof spec === 'object' ? Number((spec as Record<string, unknown>).growth_percentage) : Number.NaN;
        if (Number.isFinite(pct)) out.push({ key, test: (c) => c.growth_rate >= pct, value: (c) => c.growth_rate });
        break;
      }
      case 'location':
        out.push(
          anyOf(key, spec, (c) =>
            [c.location.country, c.location.country_code, c.location.state ?? '', c.location.city ?? ''].filter(
              Boolean,
            ),
          ),
        );
        break;
      case 'profile_language':
      case 'speaking_language':
        out.push(anyOf(key, spec, (c) => [c.language, langName.get(c.language) ?? '']));
        break;
      case 'gender':
        out.push(anyOf(key, spec, (c) => (c.gender ? [c.gender] : [])));
        break;
      case 'type':
        out.push(anyOf(key, spec, (c) => [c.type]));
        break;
      case 'niche':
        out.push(anyOf(key, spec, (c) => [c.niche]));
        break;
      case 'sub_niche':
        out.push(anyOf(key, spec, (c) => [c.sub_niche]));
        break;
      case 'brands':
        out.push(anyOf(key, spec, (c) => c.brands));
        break;
      case 'hashtags':
        out.push(anyOf(key, listOf(spec).map(bareTag), (c) => c.hashtags));
        break;
      case 'not_hashtags':
        out.push(anyOf(key, listOf(spec).map(bareTag), (c) => c.hashtags, true));
        break;
      case 'keywords_in_bio':
        out.push(textMatcher(key, spec, (c) => c.profile.bio));
        break;
      case 'exclude_keywords_in_bio':
        out.push(textMatcher(key, spec, (c) => c.profile.bio, true));
        break;
      case 'is_verified':
        out.push(boolMatcher(key, spec, (c) => c.is_verified));
        break;
      case 'exclude_private_profile':
        if (spec === true) out.push({ key, test: (c) => !c.is_private, value: (c) => !c.is_private });
        break;
      case 'has_done_brand_deals':
        out.push(boolMatcher(key, spec, (c) => c.has_done_brand_deals));
        break;
      case 'promotes_affiliate_links':
        out.push(boolMatcher(key, spec, (c) => c.promotes_affiliate_links));
        break;
      case 'has_link_in_bio':
        out.push(boolMatcher(key, spec, (c) => c.link_in_bio !== null));
        break;
      case 'creator_has':
        out.push(creatorHas(spec));
        break;
      case 'ai_search':
        out.push(aiSearch(spec));
        break;
      default:
        // A metric the platform's catalogue lacks is ignored, like any key the service does not know.
        if (sample && key in sample.metrics && key !== 'platform' && FILTER_CATALOGUE[platform].has(key)) {
          out.push(metricMatcher(key, spec, (sample.metrics as unknown as Record<string, unknown>)[key]));
        }
    }
  }
  return out.filter((m): m is Matcher => m !== undefined);
}
