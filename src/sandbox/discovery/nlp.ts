/**
 * The sandbox's stand-in for `nlp_search`: a keyword mapper over the dictionaries. It finds niches,
 * sub-niches, countries and cities, languages, genders, "verified" and follower bounds ("over 10k
 * followers", "under 1M") in the brief. Filters sent explicitly take precedence over mapped ones.
 */
import { CITIES, COUNTRIES, LANGUAGES, NICHES, SUB_NICHES } from '../data/dictionaries.js';
import { FOLLOWER_KEY } from '../../contract/followers.js';
import type { DiscoveryPlatform } from '../../contract/platforms.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (text: string, name: string): boolean =>
  new RegExp(`(^|[^a-z])${escape(name.toLowerCase())}([^a-z]|$)`).test(text);

function amount(num: string, unit: string | undefined): number {
  const n = Number(num.replace(/,/g, ''));
  const u = (unit ?? '').toLowerCase();
  const factor = u === 'k' || u === 'thousand' ? 1_000 : u === 'm' || u === 'million' ? 1_000_000 : 1;
  return Math.round(n * factor);
}

const BOUND =
  /\b(over|more than|above|at least|under|less than|below|fewer than|up to)\s+([\d.,]+)\s*(k|m|thousand|million)?\b/gi;

/** Maps a brief to a filters object (empty when nothing was recognised). */
export function mapBrief(brief: string, platform: DiscoveryPlatform): Record<string, unknown> {
  const text = ` ${brief.toLowerCase()} `;
  const filters: Record<string, unknown> = {};
  const subNiches = SUB_NICHES.filter((s) => mentions(text, s.name)).map((s) => s.name);
  const niches = NICHES.filter((n) => mentions(text, n.name) && !subNiches.includes(n.name)).map((n) => n.name);
  if (niches.length > 0) filters.niche = niches;
  if (subNiches.length > 0) filters.sub_niche = subNiches;
  const places = [...COUNTRIES.map((c) => c.name), ...CITIES.map((c) => c.name)].filter((name) => mentions(text, name));
  if (places.length > 0) filters.location = [...new Set(places)];
  const languages = LANGUAGES.filter((l) => mentions(text, l.name)).map((l) => l.abbr);
  if (languages.length > 0) filters.profile_language = languages;
  if (/\b(female|women|woman)\b/.test(text)) filters.gender = 'female';
  else if (/\b(male|men|man)\b/.test(text)) filters.gender = 'male';
  if (/\bverified\b/.test(text)) filters.is_verified = true;
  const key = FOLLOWER_KEY[platform];
  if (key) {
    const range: Record<string, number> = {};
    for (const m of brief.matchAll(BOUND)) {
      const [, word = '', num = '', unit] = m;
      const value = amount(num, unit);
      if (!Number.isFinite(value)) continue;
      if (/over|more|above|least/i.test(word)) range.min = value;
      else range.max = value;
    }
    if (Object.keys(range).length > 0) filters[key] = range;
  }
  return filters;
}
