import { describe, expect, it } from 'vitest';
import {
  CREATORS_PER_PLATFORM,
  CreatorStore,
  generateCreators,
  type Creator,
} from '../../src/sandbox/data/creators.js';
import { BRANDS, COUNTRIES, GAMES, LANGUAGES, NICHES, SUB_NICHES } from '../../src/sandbox/data/dictionaries.js';
import { normalizeHandle } from '../../src/contract/handles.js';
import { DISCOVERY_PLATFORMS } from '../../src/contract/platforms.js';
import { start } from './helpers.js';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** One generation per platform for the whole file (each costs ~100 ms). */
const store = new CreatorStore(42);

describe('synthetic creators', () => {
  it('two sandboxes with the same seed have identical creators; another seed differs', async () => {
    const [a, b, c] = await Promise.all([start({ seed: 7 }), start({ seed: 7 }), start({ seed: 8 })]);
    try {
      const first = a.state.creators.list('tiktok');
      expect(first).toHaveLength(CREATORS_PER_PLATFORM);
      expect(JSON.stringify(b.state.creators.list('tiktok'))).toBe(JSON.stringify(first));
      const other = c.state.creators.list('tiktok');
      const same = other.filter((x, i) => x.profile.username === first[i]?.profile.username).length;
      expect(same).toBeLessThan(first.length / 10);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('does not depend on the order platforms are generated in', () => {
    const direct = generateCreators(42, 'twitch', 200);
    expect(store.list('twitch').slice(0, 200)).toEqual(direct);
  });

  it.each(DISCOVERY_PLATFORMS)('%s: realistic follower and engagement distributions', (platform) => {
    const creators = store.list(platform);
    const followers = creators.map((c) => c.profile.followers);
    const mid = median(followers);
    expect(mid).toBeGreaterThan(1_000);
    expect(mid).toBeLessThan(100_000);
    expect(Math.max(...followers)).toBeGreaterThan(1_000_000);
    const inBody = followers.filter((f) => f >= 1_000 && f <= 50_000).length / followers.length;
    expect(inBody).toBeGreaterThan(0.6);
    const millions = followers.filter((f) => f >= 1_000_000).length;
    expect(millions).toBeLessThan(creators.length / 100); // "a few"

    const engagement = (lo: number, hi: number): number =>
      mean(
        creators
          .filter((c) => c.profile.followers >= lo && c.profile.followers < hi)
          .map((c) => c.profile.engagement_percent),
      );
    expect(engagement(0, 10_000)).toBeGreaterThan(engagement(10_000, 100_000));
    expect(engagement(10_000, 100_000)).toBeGreaterThan(engagement(100_000, Infinity));
    const rates = creators.map((c) => c.profile.engagement_percent);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0.2);
    expect(Math.max(...rates)).toBeLessThanOrEqual(15);

    // Verification is rare and goes with size.
    const verifiedShare = (list: Creator[]): number => list.filter((c) => c.is_verified).length / list.length;
    expect(verifiedShare([...creators])).toBeLessThan(0.05);
    expect(verifiedShare(creators.filter((c) => c.profile.followers >= 100_000))).toBeGreaterThan(
      verifiedShare(creators.filter((c) => c.profile.followers < 10_000)),
    );
  });

  it.each(DISCOVERY_PLATFORMS)('%s: unique lowercase handles and ids, well-formed profiles', (platform) => {
    const creators = store.list(platform);
    expect(new Set(creators.map((c) => c.profile.username)).size).toBe(creators.length);
    expect(new Set(creators.map((c) => c.user_id)).size).toBe(creators.length);
    for (const c of creators.slice(0, 500)) {
      expect(c.platform).toBe(platform);
      expect(c.profile.username).toMatch(/^[a-z0-9._]+$/);
      expect(c.profile.username).toBe(normalizeHandle(c.url));
      expect(c.profile.picture).toMatch(/^https:\/\/cdn\.sandbox\.invalid\//);
      expect(c.profile.full_name.length).toBeGreaterThan(2);
      expect(c.profile.bio.length).toBeGreaterThan(5);
      expect(c.income.min).toBeLessThanOrEqual(c.income.max);
      expect(c.metrics.platform).toBe(platform);
      if (c.email !== null) expect(c.email).toMatch(/@([a-z0-9-]+\.)*example\.(com|net|org)$/);
    }
    const withEmail = creators.filter((c) => c.email !== null).length / creators.length;
    expect(withEmail).toBeGreaterThan(0.3);
    expect(withEmail).toBeLessThan(0.8);
  });

  it('draws niche, sub-niche, location, language, brands and games from the dictionaries', () => {
    const niches = new Set(NICHES.map((n) => n.name));
    const subs = new Map(SUB_NICHES.map((s) => [s.name + '|' + s.niche, s]));
    const countries = new Set(COUNTRIES.map((c) => c.name));
    const languages = new Set(LANGUAGES.map((l) => l.abbr));
    const brands = new Set(BRANDS.map((b) => b.username));
    const games = new Set(GAMES.map((g) => g.name));
    const problems: string[] = [];
    for (const platform of DISCOVERY_PLATFORMS) {
      for (const c of store.list(platform)) {
        const where = `${platform}/${c.profile.username}`;
        if (!niches.has(c.niche)) problems.push(`${where}: niche ${c.niche}`);
        if (!subs.has(`${c.sub_niche}|${c.niche}`)) problems.push(`${where}: sub-niche ${c.sub_niche}`);
        if (!countries.has(c.location.country)) problems.push(`${where}: country ${c.location.country}`);
        if (!languages.has(c.language)) problems.push(`${where}: language ${c.language}`);
        if (c.brands.some((b) => !brands.has(b))) problems.push(`${where}: brands ${c.brands.join()}`);
        if (c.brands.length > 0 !== c.has_done_brand_deals) problems.push(`${where}: brand deals`);
        if (c.metrics.platform === 'twitch' && c.metrics.games_played.some((g) => !games.has(g))) {
          problems.push(`${where}: games ${c.metrics.games_played.join()}`);
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(BRANDS.length).toBe(brands.size); // brand handles are unique too
  });

  it('carries the platform-specific metrics', () => {
    const yt = store.list('youtube')[0];
    expect(yt?.metrics).toMatchObject({ platform: 'youtube', subscribers: yt?.profile.followers });
    expect(store.list('youtube')[0]?.metrics).toHaveProperty('number_of_videos');
    expect(store.list('twitch')[0]?.metrics).toHaveProperty('avg_views_last_30_days');
    expect(store.list('onlyfans')[0]?.metrics).toHaveProperty('subscription_price');
    expect(store.list('twitter')[0]?.metrics).toHaveProperty('tweets_count');
    const onlyfans = store.list('onlyfans');
    for (const c of onlyfans.slice(0, 300)) {
      if (c.metrics.platform !== 'onlyfans') throw new Error('wrong metrics');
      expect(c.metrics.subscription_price === 0).toBe(c.metrics.has_free_account);
    }
    const gamers = store.list('twitch').filter((c) => c.niche === 'Gaming').length;
    expect(gamers / CREATORS_PER_PLATFORM).toBeGreaterThan(0.5);
  });

  it('finds a creator by handle, @handle, profile URL or user id', () => {
    const c = store.list('instagram')[123] as Creator;
    const handle = c.profile.username;
    expect(store.find('instagram', handle)).toBe(c);
    expect(store.find('instagram', `@${handle.toUpperCase()}`)).toBe(c);
    expect(store.find('instagram', `https://www.instagram.com/${handle}/?hl=en`)).toBe(c);
    expect(store.find('instagram', c.user_id)).toBe(c);
    expect(store.find('instagram', 'no-such-creator-here')).toBeUndefined();
  });
});

describe('normalizeHandle', () => {
  it.each([
    ['@Foo', 'foo'],
    ['  foo.bar ', 'foo.bar'],
    ['https://www.instagram.com/Foo/', 'foo'],
    ['instagram.com/foo?igsh=1', 'foo'],
    ['https://www.youtube.com/@Foo', 'foo'],
    ['https://www.youtube.com/c/Foo', 'foo'],
    ['https://x.com/foo/status/1', 'foo'],
    ['https://www.tiktok.com/@foo/video/1', 'foo'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeHandle(input)).toBe(expected);
  });
});
