/**
 * The eleven dictionaries of the service ("classifier" routes). The real entry field names are
 * not published (api-contract.md §6), so these shapes are the sandbox's choice:
 *
 *   languages                  {abbr, name}
 *   locations/{platform}       {id, name, type: 'country'|'state'|'city', country_code, country, state?}
 *   brands                     {username, name, cleaned_name, category}
 *   yt-topics                  {id, name, sub_topics: [{id, name}]}
 *   games                      {id, name, slug, genre, release_year, publisher}
 *   audience-brand-categories  {id, name}
 *   audience-brand-names       {id, name, username, category}
 *   audience-interests         {id, name}
 *   audience-locations         same as locations (every country, state and city)
 *   niche                      {id, name, slug}
 *   sub-niche                  {id, name, slug, niche, niche_id}
 *
 * Everything is static (independent of the seed); the synthetic creators draw from these lists.
 */
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import { BRANDS, cleanName, type Brand } from './brands.js';
import { AUDIENCE_INTEREST_NAMES, BRAND_CATEGORY_NAMES, GAME_ROWS, NICHE_ROWS, YT_TOPIC_ROWS } from './catalog.js';
import { CITY_ROWS, COUNTRY_ROWS, LANGUAGE_ROWS, STATE_ROWS, rows } from './geo.js';

export type { Brand };
export { BRANDS };

export interface LanguageEntry {
  abbr: string;
  name: string;
}

export type LocationType = 'country' | 'state' | 'city';

export interface LocationEntry {
  id: number;
  name: string;
  type: LocationType;
  country_code: string;
  country: string;
  /** Cities only: the state or region, when the dictionary knows it. */
  state?: string;
}

export interface Country {
  id: number;
  code: string;
  name: string;
  /** Main language abbreviation, used to give creators a plausible language. */
  language: string;
  /** Relative share of synthetic creators living there. */
  weight: number;
}

export interface NamedEntry {
  id: number;
  name: string;
}

export interface YtTopic extends NamedEntry {
  sub_topics: NamedEntry[];
}

export interface Game extends NamedEntry {
  slug: string;
  genre: string;
  release_year: number;
  publisher: string;
}

export interface AudienceBrandName extends NamedEntry {
  username: string;
  category: string;
}

export interface NicheEntry extends NamedEntry {
  slug: string;
}

export interface SubNicheEntry extends NicheEntry {
  niche: string;
  niche_id: number;
}

const slug = (name: string): string => cleanName(name).replace(/ /g, '-');
const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name, 'en');
const split = (text: string): string[] =>
  text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

export const LANGUAGES: readonly LanguageEntry[] = rows(LANGUAGE_ROWS).map(([abbr = '', name = '']) => ({
  abbr,
  name,
}));

export const COUNTRIES: readonly Country[] = rows(COUNTRY_ROWS)
  .map(([code = '', name = '', language = 'en', weight = '1']) => ({ code, name, language, weight: Number(weight) }))
  .sort(byName)
  .map((c, i) => ({ id: i + 1, ...c }));

const countryName = new Map(COUNTRIES.map((c) => [c.code, c.name]));

function places(text: string, type: LocationType, firstId: number): LocationEntry[] {
  return rows(text)
    .map(([code = '', name = '', state]) => ({
      name,
      type,
      country_code: code,
      country: countryName.get(code) ?? code,
      ...(state ? { state } : {}),
    }))
    .sort((a, b) => byName(a, b) || a.country.localeCompare(b.country, 'en'))
    .map((p, i) => ({ id: firstId + i, ...p }));
}

export const STATES: readonly LocationEntry[] = places(STATE_ROWS, 'state', 1001);
export const CITIES: readonly LocationEntry[] = places(CITY_ROWS, 'city', 5001);

/** Every location, countries first: the audience-locations dictionary. */
export const AUDIENCE_LOCATIONS: readonly LocationEntry[] = [
  ...COUNTRIES.map((c) => ({
    id: c.id,
    name: c.name,
    type: 'country' as const,
    country_code: c.code,
    country: c.name,
  })),
  ...STATES,
  ...CITIES,
];

/**
 * Location values differ per platform in the real service; here Twitch only knows countries and
 * OnlyFans countries and cities, the others everything.
 */
const LOCATION_TYPES: Record<DiscoveryPlatform, readonly LocationType[]> = {
  instagram: ['country', 'state', 'city'],
  youtube: ['country', 'state', 'city'],
  tiktok: ['country', 'state', 'city'],
  twitter: ['country', 'state', 'city'],
  twitch: ['country'],
  onlyfans: ['country', 'city'],
};

export function locationsFor(platform: DiscoveryPlatform): LocationEntry[] {
  const types = LOCATION_TYPES[platform];
  return AUDIENCE_LOCATIONS.filter((l) => types.includes(l.type));
}

export const YT_TOPICS: readonly YtTopic[] = rows(YT_TOPIC_ROWS).map(([line = ''], i) => {
  const [name = '', subs = ''] = line.split(':');
  const id = (i + 1) * 100;
  return {
    id,
    name: name.trim(),
    sub_topics: subs.split(',').map((s, j) => ({ id: id + j + 1, name: s.trim() })),
  };
});

export const GAMES: readonly Game[] = rows(GAME_ROWS).map(([name = '', genre = '', year = '0', publisher = ''], i) => ({
  id: 10_000 + i * 7,
  name,
  slug: slug(name),
  genre,
  release_year: Number(year),
  publisher,
}));

export const AUDIENCE_BRAND_CATEGORIES: readonly NamedEntry[] = split(BRAND_CATEGORY_NAMES).map((name, i) => ({
  id: i + 1,
  name,
}));

export const AUDIENCE_INTERESTS: readonly NamedEntry[] = split(AUDIENCE_INTEREST_NAMES).map((name, i) => ({
  id: i + 1,
  name,
}));

export const AUDIENCE_BRAND_NAMES: readonly AudienceBrandName[] = [...BRANDS]
  .sort(byName)
  .map((b, i) => ({ id: i + 1, name: b.name, username: b.username, category: b.category }));

const nicheRows = rows(NICHE_ROWS).map(([line = '']) => {
  const [name = '', subs = ''] = line.split(':');
  return { name: name.trim(), subs: subs.split(',').map((s) => s.trim()) };
});

export const NICHES: readonly NicheEntry[] = nicheRows.map((n, i) => ({ id: i + 1, name: n.name, slug: slug(n.name) }));

export const SUB_NICHES: readonly SubNicheEntry[] = nicheRows.flatMap((n, i) =>
  n.subs.map((name, j) => ({ id: (i + 1) * 100 + j + 1, name, slug: slug(name), niche: n.name, niche_id: i + 1 })),
);
