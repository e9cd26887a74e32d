/**
 * Deterministic synthetic creators for the six Discovery platforms. Each platform has its own
 * PRNG stream derived from the seed, so one platform's list never depends on whether another
 * was generated first, and the same seed always yields byte-identical creators.
 *
 * Distributions: followers are log-normal (median around 10k) with a Pareto tail, so most
 * creators have 1k-50k followers and a few dozen per platform have millions; engagement falls
 * with size (about 12% at 1k to under 1% at 10M) with noise, clamped to 0.2-15%.
 */
import { normalizeHandle } from '../../contract/handles.js';
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import {
  digitString,
  intBetween,
  normal,
  pick,
  pickSome,
  pickWeighted,
  round,
  streamFor,
  type Rng,
} from '../random.js';
import { BRANDS, CITIES, COUNTRIES, LANGUAGES, NICHES, STATES, SUB_NICHES, type Country } from './dictionaries.js';
import { platformMetrics, type PlatformMetrics } from './metrics.js';
import {
  BIO_TEMPLATES,
  FEMALE_NAMES,
  HANDLE_WORDS,
  LAST_NAMES,
  LINK_TEMPLATES,
  MALE_NAMES,
  OTHER_PLATFORMS,
  PLATFORM_TAGS,
} from './people.js';
import { NICHE_BIAS, NICHE_BRAND_HINTS, SHAPE } from './tuning.js';

export const CREATORS_PER_PLATFORM = 12_000;

export interface CreatorProfile {
  /** Lowercase, unique per platform. */
  username: string;
  full_name: string;
  picture: string;
  followers: number;
  engagement_percent: number;
  bio: string;
}

export interface Creator {
  user_id: string;
  platform: DiscoveryPlatform;
  profile: CreatorProfile;
  /** Public profile URL. */
  url: string;
  niche: string;
  sub_niche: string;
  location: { country: string; country_code: string; state: string | null; city: string | null };
  /** Language abbreviation from the languages dictionary. */
  language: string;
  gender: 'male' | 'female' | null;
  type: 'creator' | 'business';
  is_verified: boolean;
  is_private: boolean;
  /** Without the leading `#`. */
  hashtags: string[];
  /** Brand usernames from the brands dictionary the creator has worked with. */
  brands: string[];
  has_done_brand_deals: boolean;
  promotes_affiliate_links: boolean;
  email: string | null;
  link_in_bio: string | null;
  has_personal_website: boolean;
  /** Other platforms the creator is on (Discovery platforms and others, e.g. `patreon`). */
  other_platforms: string[];
  /** Posts (streams for Twitch) per week. */
  posting_frequency: number;
  /** Follower growth over the last 3 months, in percent. */
  growth_rate: number;
  /** Estimated monthly income from sponsored content. */
  income: { min: number; max: number; currency: 'USD' };
  metrics: PlatformMetrics;
}

/** Groups a list by a key once, so the per-creator loop does lookups, not scans. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

const PLATFORMS = Object.keys(SHAPE) as DiscoveryPlatform[];
const nicheWeights = new Map(PLATFORMS.map((p) => [p, NICHES.map((n) => NICHE_BIAS[p][n.name] ?? 1)]));
const countryWeights = COUNTRIES.map((c) => c.weight);
const languageCodes = LANGUAGES.map((l) => l.abbr);
const subNichesByNiche = groupBy(SUB_NICHES, (s) => s.niche);
const citiesByCountry = groupBy(CITIES, (c) => c.country_code);
const statesByCountry = groupBy(STATES, (s) => s.country_code);
const brandsByNiche = new Map(
  NICHES.map((n) => [n.name, BRANDS.filter((b) => NICHE_BRAND_HINTS[n.name]?.includes(b.category))]),
);
const languageByCountry = new Map(COUNTRIES.map((c) => [c.code, c.language]));
/** Where else a creator may be: the other Discovery platforms and a few more. */
const elsewhere = new Map(PLATFORMS.map((p) => [p, [...PLATFORMS.filter((q) => q !== p), ...OTHER_PLATFORMS]]));
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** Largest follower count generated (the biggest real accounts are in the hundreds of millions). */
const MAX_FOLLOWERS = 200_000_000;

function followerCount(rng: Rng, median: number): number {
  let value: number;
  if (rng() < 0.03) {
    // 3% Pareto tail from 50k (alpha 0.9), truncated at MAX_FOLLOWERS: the millions live here.
    const alpha = 0.9;
    const uMin = Math.pow(50_000 / MAX_FOLLOWERS, alpha);
    value = 50_000 / Math.pow(uMin + (1 - uMin) * rng(), 1 / alpha);
  } else {
    value = Math.exp(Math.log(median) + 1.15 * normal(rng));
  }
  return Math.min(MAX_FOLLOWERS, Math.max(100, Math.round(value)));
}

/** About 12% at 1k followers, 2.5% at 100k, under 1% at 10M, times noise; within 0.2-15. */
function engagementFor(rng: Rng, followers: number, factor: number): number {
  const base = 12 * factor * Math.pow(followers / 1000, -0.33);
  return round(Math.min(15, Math.max(0.2, base * Math.exp(0.35 * normal(rng)))), 2);
}

function verifiedChance(followers: number): number {
  if (followers >= 1_000_000) return 0.7;
  if (followers >= 100_000) return 0.25;
  if (followers >= 10_000) return 0.03;
  return 0.004;
}

/** Platform-shaped ids: YouTube channel ids, long numeric ids elsewhere. */
function userId(rng: Rng, platform: DiscoveryPlatform): string {
  if (platform === 'youtube') {
    return `UC${Array.from({ length: 22 }, () => URL_SAFE[Math.floor(rng() * URL_SAFE.length)]).join('')}`;
  }
  const digits = { tiktok: 19, twitter: 18, instagram: 10, twitch: 9, onlyfans: 9 }[platform];
  return digitString(rng, digits);
}

function uniqueId(rng: Rng, platform: DiscoveryPlatform, ids: Set<string>): string {
  let id = userId(rng, platform);
  while (ids.has(id)) id = userId(rng, platform);
  ids.add(id);
  return id;
}

function handleFor(
  rng: Rng,
  platform: DiscoveryPlatform,
  name: [string, string],
  niche: string,
  taken: Set<string>,
): string {
  const [first, last] = name;
  const { maxHandle, separators } = SHAPE[platform];
  const word = pick(rng, HANDLE_WORDS[niche] ?? ['life']);
  const sep = pick(rng, separators);
  const styles = [
    `${first}${last}`,
    `${first}${sep}${last}`,
    `${first}${word}`,
    `${word}with${first}`,
    `the${first}${word}`,
    `${first}${sep}${word}`,
  ];
  let handle = pick(rng, styles)
    .slice(0, maxHandle)
    .replace(/[._]+$/, '');
  while (taken.has(handle)) {
    const suffix = String(intBetween(rng, 1, 9999));
    handle = `${handle.slice(0, maxHandle - suffix.length)}${suffix}`;
  }
  taken.add(handle);
  return handle;
}

function brandsFor(rng: Rng, niche: string, count: number): string[] {
  const fitting = brandsByNiche.get(niche) ?? [];
  const pool = fitting.length > 0 && rng() < 0.75 ? fitting : BRANDS;
  return pickSome(rng, pool, count).map((b) => b.username);
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const tag = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

function placeFor(rng: Rng): Creator['location'] {
  const country: Country = pickWeighted(rng, COUNTRIES, countryWeights);
  const cities = citiesByCountry.get(country.code) ?? [];
  const city = cities.length > 0 && rng() < 0.85 ? pick(rng, cities) : undefined;
  const states = statesByCountry.get(country.code) ?? [];
  // A city's state comes from the dictionary, so the two always agree.
  const state = city ? (city.state ?? null) : states.length > 0 && rng() < 0.3 ? pick(rng, states).name : null;
  return { country: country.name, country_code: country.code, state, city: city?.name ?? null };
}

function emailFor(rng: Rng, username: string, name: [string, string], business: boolean): string | null {
  if (rng() >= 0.55) return null;
  const bare = username.replace(/[._]/g, '');
  if (business) return `hello@${bare}.example.net`;
  return pick(rng, [`${username}@example.com`, `${name[0]}.${name[1]}@example.org`, `${bare}.collabs@example.com`]);
}

function makeCreator(rng: Rng, platform: DiscoveryPlatform, taken: Set<string>, ids: Set<string>): Creator {
  const shape = SHAPE[platform];
  const niche = pickWeighted(rng, NICHES, nicheWeights.get(platform) ?? []).name;
  const subNiche = pick(rng, subNichesByNiche.get(niche) ?? []).name;
  const location = placeFor(rng);
  // Mostly the country's language, else English, rarely anything.
  const native = languageByCountry.get(location.country_code) ?? 'en';
  const language = rng() < 0.85 ? native : rng() < 0.8 ? 'en' : pick(rng, languageCodes);
  const business = rng() < shape.business;
  const femaleShare = niche === 'Adult & Dating' ? 0.85 : 0.52;
  const gender = business ? null : rng() < femaleShare ? 'female' : 'male';
  const name: [string, string] = [pick(rng, gender === 'male' ? MALE_NAMES : FEMALE_NAMES), pick(rng, LAST_NAMES)];
  const username = handleFor(rng, platform, name, niche, taken);
  const id = uniqueId(rng, platform, ids);
  const fullName = business
    ? `${capitalise(name[1])} ${niche.split(' ')[0]} ${pick(rng, ['Studio', 'Co.', 'Media', 'Collective', 'Shop'])}`
    : `${capitalise(name[0])} ${capitalise(name[1])}`;

  const followers = followerCount(rng, shape.median);
  const engagement = engagementFor(rng, followers, shape.engagement);
  const bio = fill(pick(rng, BIO_TEMPLATES), {
    sub: subNiche,
    sub_lower: subNiche.toLowerCase(),
    niche,
    place: location.city ?? location.country,
    name: capitalise(name[0]),
  });
  const hashtags = new Set([tag(subNiche), tag(niche), ...pickSome(rng, HANDLE_WORDS[niche] ?? [], 2)]);
  for (const t of pickSome(rng, PLATFORM_TAGS[platform] ?? [], intBetween(rng, 1, 3))) hashtags.add(t);
  const hasDeals = rng() < (followers >= 50_000 ? 0.6 : followers >= 10_000 ? 0.3 : 0.08);
  const link = rng() < 0.45 ? fill(pick(rng, LINK_TEMPLATES), { u: username.replace(/[._]/g, '') }) : null;
  const email = emailFor(rng, username, name, business);
  const posting = round(Math.max(0.1, shape.postsPerWeek * Math.exp(0.6 * normal(rng))), 1);
  // Rough sponsored income: a share of interactions per post, for the posts of a month.
  const monthly = ((followers * engagement) / 100) * 0.15 * Math.min(posting * 4.3, 60);

  return {
    user_id: id,
    platform,
    profile: {
      username,
      full_name: fullName,
      picture: `https://cdn.sandbox.invalid/${platform}/${id}.jpg`,
      followers,
      engagement_percent: engagement,
      bio,
    },
    url: shape.profileUrl(username),
    niche,
    sub_niche: subNiche,
    location,
    language,
    gender,
    type: business ? 'business' : 'creator',
    is_verified: rng() < verifiedChance(followers),
    is_private: platform === 'instagram' || platform === 'tiktok' ? rng() < 0.04 : false,
    hashtags: [...hashtags],
    brands: hasDeals ? brandsFor(rng, niche, intBetween(rng, 1, 5)) : [],
    has_done_brand_deals: hasDeals,
    promotes_affiliate_links: rng() < (hasDeals ? 0.5 : 0.1),
    email,
    link_in_bio: link,
    has_personal_website: link?.endsWith('.example.com') ?? false,
    other_platforms: pickSome(rng, elsewhere.get(platform) ?? [], intBetween(rng, 0, 4)),
    posting_frequency: posting,
    growth_rate: round(Math.max(-15, Math.min(60, 1.5 + 4 * normal(rng) + (followers < 20_000 ? 2 : 0))), 2),
    income: { min: Math.round(monthly * 0.7), max: Math.round(monthly * 1.4), currency: 'USD' },
    metrics: platformMetrics(rng, platform, followers, engagement, niche),
  };
}

/** Generates a platform's creators from the seed (pure: same input, same output). */
export function generateCreators(seed: number, platform: DiscoveryPlatform, count = CREATORS_PER_PLATFORM): Creator[] {
  const rng = streamFor(seed, `creators:${platform}`);
  const taken = new Set<string>();
  const ids = new Set<string>();
  const out: Creator[] = [];
  for (let i = 0; i < count; i++) out.push(makeCreator(rng, platform, taken, ids));
  return out;
}

/** A sandbox's creators: generated per platform on first access, then indexed by handle and id. */
export class CreatorStore {
  private readonly lists = new Map<DiscoveryPlatform, Creator[]>();
  private readonly byHandle = new Map<DiscoveryPlatform, Map<string, Creator>>();
  private readonly byId = new Map<DiscoveryPlatform, Map<string, Creator>>();

  constructor(
    readonly seed: number,
    readonly perPlatform = CREATORS_PER_PLATFORM,
  ) {}

  /** All creators of a platform, in generation order (a stable "relevance" order). */
  list(platform: DiscoveryPlatform): readonly Creator[] {
    let list = this.lists.get(platform);
    if (!list) {
      list = generateCreators(this.seed, platform, this.perPlatform);
      this.lists.set(platform, list);
      this.byHandle.set(platform, new Map(list.map((c) => [c.profile.username, c])));
      this.byId.set(platform, new Map(list.map((c) => [c.user_id, c])));
    }
    return list;
  }

  /** By handle, `@handle` or profile URL (normalised like the API does), or by user_id. */
  find(platform: DiscoveryPlatform, handleOrId: string): Creator | undefined {
    this.list(platform);
    const byHandle = this.byHandle.get(platform)?.get(normalizeHandle(handleOrId));
    return byHandle ?? this.byId.get(platform)?.get(handleOrId.trim());
  }
}
