/**
 * Enrichment records built from the synthetic creators, one builder per tier. The layout follows
 * the official full-tier fixture (api-contract.md §7): `result` holds a block keyed by platform plus
 * general keys (`email`, `other_links`, `lookalikes`...). Field lists for raw, profile and analytics
 * are not published; these are the sandbox's choice and are documented in the README.
 */
import type { Creator } from '../data/creators.js';
import { AUDIENCE_PLATFORMS, isDiscoveryPlatform } from '../../contract/platforms.js';
import { hash32, intBetween, pickSome, round, streamFor, type Rng } from '../random.js';
import type { SandboxState } from '../state.js';
import { normalizeHandle } from '../../contract/handles.js';
import { BigIntegerValue } from '../respond.js';
import { creatorPosts, mediaCount, RECORD_POSTS } from './creator-posts.js';

/** Audience data exists for these only (api-contract.md §7). */
const AUDIENCE = new Set<string>(AUDIENCE_PLATFORMS);

export interface HandleOptions {
  emailRequired: 'must_have' | 'preferred';
  includeLookalikes: boolean;
  includeAudienceData: boolean;
}

/**
 * The creator behind a handle. Discovery platforms use the synthetic store (unknown handles are
 * not found); the scraper-only platforms (snapchat, discord...) synthesise a small profile from the
 * handle itself, except handles beginning with `missing`, which are never found anywhere.
 */
export function findCreator(state: SandboxState, platform: string, handle: string): Creator | undefined {
  const clean = normalizeHandle(handle);
  if (!clean || clean.startsWith('missing')) return undefined;
  if (isDiscoveryPlatform(platform)) return state.creators.find(platform, handle);
  return scraperOnlyCreator(state, platform, clean);
}

function scraperOnlyCreator(state: SandboxState, platform: string, handle: string): Creator {
  // Borrow a deterministic Instagram creator for the person, then re-badge it for this platform.
  const list = state.creators.list('instagram');
  const base = list[hash32(`${platform}:${handle}`) % list.length] as Creator;
  return {
    ...base,
    user_id: String(hash32(`${state.seed}:${platform}:${handle}`)),
    platform: base.platform,
    profile: { ...base.profile, username: handle, followers: Math.round(base.profile.followers / 3) },
    url: `https://${platform}.com/${handle}`,
  };
}

function rngFor(state: SandboxState, platform: string, creator: Creator, purpose: string): Rng {
  return streamFor(state.seed, `${purpose}:${platform}:${creator.user_id}`);
}

/**
 * The platform's own numeric id: TikTok's is a 19-digit integer, beyond 2^53, sent as a bare JSON number
 * (the real service does; a client that parses it as a double rounds it). Other platforms' ids are strings.
 */
function platformUserid(platform: string, creator: Creator): string | BigIntegerValue {
  return platform === 'tiktok' && /^\d+$/.test(creator.user_id)
    ? new BigIntegerValue(creator.user_id)
    : creator.user_id;
}

/** Raw tier: platform data "as scraped", with the platform's own field names. */
export function rawRecord(platform: string, creator: Creator): Record<string, unknown> {
  return {
    [platform]: {
      userid: platformUserid(platform, creator),
      username: creator.profile.username,
      full_name: creator.profile.full_name,
      biography: creator.profile.bio,
      follower_count: creator.profile.followers,
      media_count: mediaCount(creator),
      is_verified: creator.is_verified,
      is_private: creator.is_private,
      is_business_account: creator.type === 'business',
      external_url: creator.link_in_bio,
      profile_pic_url: creator.profile.picture,
    },
  };
}

/** Profile tier: identity, contact and vetting data (service-spec.md, single enrichment). */
export function profileRecord(platform: string, creator: Creator): Record<string, unknown> {
  const [first] = creator.profile.full_name.split(' ');
  return {
    [platform]: {
      username: creator.profile.username,
      userid: platformUserid(platform, creator),
      full_name: creator.profile.full_name,
      biography: creator.profile.bio,
      profile_picture: creator.profile.picture,
      profile_url: creator.url,
      follower_count: creator.profile.followers,
      media_count: mediaCount(creator),
      is_verified: creator.is_verified,
      is_business: creator.type === 'business',
      niche_class: creator.niche,
      niche_sub_class: creator.sub_niche,
    },
    email: creator.email,
    first_name: creator.type === 'business' ? null : first,
    gender: creator.gender,
    location: creator.location,
    language: creator.language,
    other_platforms: creator.other_platforms,
  };
}

function analyticsBlock(state: SandboxState, platform: string, creator: Creator, rng: Rng): Record<string, unknown> {
  const followers = creator.profile.followers;
  const interactions = (followers * creator.profile.engagement_percent) / 100;
  return {
    username: creator.profile.username,
    userid: platformUserid(platform, creator),
    full_name: creator.profile.full_name,
    profile_picture: creator.profile.picture,
    follower_count: followers,
    engagement_percent: creator.profile.engagement_percent,
    likes_median: Math.round(interactions * 0.9),
    comments_median: Math.round(interactions * 0.04),
    posting_frequency_recent_months: creator.posting_frequency,
    follower_growth_percent: creator.growth_rate,
    creator_follower_growth: followerGrowth(state, platform, creator),
    income: creator.income,
    hashtags: creator.hashtags,
    tagged: pickSome(rng, ['studio', 'friends', 'collab', 'crew'], intBetween(rng, 0, 2)).map((w) => ({
      username: `${w}_${creator.profile.username}`.slice(0, 30),
      userid: String(hash32(`${w}:${creator.user_id}`)),
    })),
    brands_found: creator.brands,
    brand_affinity: creator.brands.map((name) => ({ name, interest: [creator.niche] })),
    // The creator's newest posts: the same ones the posts route pages through.
    post_data: creatorPosts(state.seed, platform, creator, 0, RECORD_POSTS),
  };
}

/**
 * Growth in percent since 3, 6 and 12 months ago (the service's `creator_follower_growth`): the 3-month
 * figure is the creator's `growth_rate`, the longer ones grow from it. Its own random stream, so the
 * rest of the record is what it was before these were added.
 */
function followerGrowth(state: SandboxState, platform: string, creator: Creator): Record<string, number> {
  const rng = rngFor(state, platform, creator, 'growth');
  const three = creator.growth_rate;
  const six = round(three * (1.6 + rng() * 0.4), 2);
  const twelve = round(six * (1.5 + rng() * 0.5), 2);
  return { '3_months_ago': three, '6_months_ago': six, '12_months_ago': twelve };
}

const AGE_GROUPS = ['13-17', '18-24', '25-34', '35-44', '45-64', '65-'] as const;
const AGE_SHAPE = [0.6, 3, 3.2, 1.6, 0.9, 0.2] as const;

/** `[{code, weight}]` shares summing to 1 (3 decimals), the last one taking the rounding. */
function shares(codes: readonly string[], raw: readonly number[]): { code: string; weight: number }[] {
  const sum = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((v) => round(v / sum, 3));
  weights[weights.length - 1] = round(1 - weights.slice(0, -1).reduce((a, b) => a + b, 0), 3);
  return codes.map((code, i) => ({ code, weight: weights[i] ?? 0 }));
}

/** A slice's ages and genders (`audience_ages`, `audience_genders`), from their own random stream. */
function demographics(creator: Creator, rng: Rng): Record<string, unknown> {
  const female = Math.min(
    0.85,
    Math.max(0.15, 0.35 + rng() * 0.3 + (creator.gender === 'female' ? 0.15 : creator.gender === 'male' ? -0.1 : 0)),
  );
  return {
    audience_ages: shares(
      AGE_GROUPS,
      AGE_SHAPE.map((v) => v * (0.6 + rng() * 0.8)),
    ),
    audience_genders: shares(['FEMALE', 'MALE'], [female, 1 - female]),
  };
}

/**
 * `audience_credibility_followers_histogram` (and `_likers_`): how credible the audiences of comparable
 * accounts are, in bins of 0.05 from 0.4 to 1 (`{min, max, total}`; the first bin has no `min`, the last no
 * `max`, as the service sends them), the median's bin flagged `median: true`.
 */
function credibilityHistogram(rng: Rng): Record<string, unknown>[] {
  const bins = Array.from({ length: 12 }, (_, i) => {
    const middle = 0.425 + i * 0.05;
    return Math.round(4000 * Math.exp(-((middle - 0.78) ** 2) / 0.012) * (0.8 + rng() * 0.4)) + 5;
  });
  const total = bins.reduce((a, b) => a + b, 0);
  let seen = 0;
  let median = -1;
  return bins.map((count, i) => {
    seen += count;
    const bin: Record<string, unknown> = {
      ...(i > 0 ? { min: round(0.4 + i * 0.05, 2) } : {}),
      ...(i < 11 ? { max: round(0.45 + i * 0.05, 2) } : {}),
      total: count,
    };
    if (median < 0 && seen >= total / 2) {
      median = i;
      bin.median = true;
    }
    return bin;
  });
}

function posts(platform: string, creator: Creator, rng: Rng, count: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const base = Date.UTC(2026, 9, 30);
  for (let i = 0; i < count; i++) {
    const id = `${creator.user_id.slice(-6)}${i}${intBetween(rng, 100, 999)}`;
    const likes = Math.round(((creator.profile.followers * creator.profile.engagement_percent) / 100) * (0.6 + rng()));
    out.push({
      post_id: id,
      created_at: new Date(base - i * 3 * 86_400_000).toISOString(),
      caption: `${creator.sub_niche} #${creator.hashtags[0] ?? 'post'}`,
      post_url: `https://www.${platform}.com/p/${id}/`,
      media: [
        {
          media_id: `${id}_1`,
          type: rng() < 0.5 ? 'image' : 'video',
          url: `https://cdn.sandbox.invalid/${platform}/${id}.jpg`,
        },
      ],
      engagement: { likes, comments: Math.round(likes * 0.04) },
    });
  }
  return out;
}

/** One account of `notable_users` or `audience_lookalikes` (api-contract §7: the full tier's audience slices). */
function audienceUser(c: Creator): Record<string, unknown> {
  const engagements = Math.round((c.profile.followers * c.profile.engagement_percent) / 100);
  return {
    user_id: c.user_id,
    username: c.profile.username,
    picture: c.profile.picture,
    followers: c.profile.followers,
    fullname: c.profile.full_name,
    url: c.url,
    is_verified: c.is_verified,
    engagements,
    stats: [
      {
        post_type: 'all',
        avg_likes: Math.round(engagements * 0.95),
        avg_comments: Math.round(engagements * 0.05),
        engagement_rate: round(c.profile.engagement_percent / 100, 4),
      },
    ],
    geo: {
      country: { id: hash32(c.location.country_code) % 1000, name: c.location.country, code: c.location.country_code },
      city: c.location.city ? { id: hash32(c.location.city) % 100_000, name: c.location.city } : {},
    },
  };
}

/**
 * A slice's `notable_users` (the biggest accounts in the audience, most followed first) and
 * `audience_lookalikes` (accounts with a like audience, mostly of the creator's niche, best score first):
 * other creators of the platform, drawn from their own stream so the rest of the record is unchanged.
 */
function audienceUsers(creator: Creator, people: AudiencePeople): Record<string, unknown> {
  const { rng, pool } = people;
  const others = pool.filter((c) => c.user_id !== creator.user_id);
  const notable = pickSome(rng, others, 24)
    .sort((a, b) => b.profile.followers - a.profile.followers)
    .slice(0, intBetween(rng, 3, 6));
  const kin = others.filter((c) => c.niche === creator.niche);
  const lookalikes = pickSome(rng, kin.length >= 3 ? kin : others, intBetween(rng, 3, 6)).map((c) => ({
    ...audienceUser(c),
    score: round(0.55 + rng() * 0.4, 3),
  }));
  lookalikes.sort((a, b) => (b.score as number) - (a.score as number));
  return { notable_users: notable.map(audienceUser), audience_lookalikes: lookalikes };
}

interface AudiencePeople {
  rng: Rng;
  /** The platform's creators, the accounts an audience's notable users and lookalikes are drawn from. */
  pool: readonly Creator[];
}

function audience(creator: Creator, rng: Rng, shape: Rng, people: AudiencePeople): Record<string, unknown> {
  const slice = (share: number): Record<string, unknown> => ({
    success: true,
    data: {
      audience_credibility: round(0.6 + rng() * 0.35, 3),
      ...demographics(creator, shape),
      audience_geo: {
        countries: [
          {
            id: 1,
            name: creator.location.country,
            code: creator.location.country_code,
            weight: round(0.4 + share * 0.2, 3),
          },
          { id: 2, name: 'United States', code: 'US', weight: round(0.15 + rng() * 0.1, 3) },
        ],
        cities: creator.location.city
          ? [
              {
                id: 1,
                name: creator.location.city,
                weight: round(0.1 + rng() * 0.1, 3),
                country: creator.location.country_code,
              },
            ]
          : [],
        states: [],
      },
      audience_brand_affinity: creator.brands.slice(0, 3).map((name, i) => ({
        id: i + 1,
        name,
        interest: [],
        weight: round(rng() * 0.2, 3),
        affinity: round(0.8 + rng(), 2),
      })),
      ...audienceUsers(creator, people),
    },
  });
  const slices = {
    audience_followers: slice(1),
    audience_likers: slice(0.5),
    audience_commenters: rng() < 0.1 ? { success: false, error: 'empty_audience' } : slice(0.2),
  };
  return {
    ...slices,
    audience_credibility_followers_histogram: credibilityHistogram(shape),
    audience_credibility_likers_histogram: credibilityHistogram(shape),
  };
}

function audiencePeople(state: SandboxState, platform: string, creator: Creator): AudiencePeople {
  return {
    rng: rngFor(state, platform, creator, 'audience-users'),
    pool: isDiscoveryPlatform(platform) ? state.creators.list(platform) : [],
  };
}

function lookalikes(state: SandboxState, platform: string, creator: Creator, rng: Rng): Record<string, unknown>[] {
  if (!isDiscoveryPlatform(platform)) return [];
  const list = state.creators.list(platform);
  return pickSome(rng, list, 3)
    .filter((c) => c.user_id !== creator.user_id)
    .map((c) => ({
      username: c.profile.username,
      profile_url: c.url,
      engagement_percent: c.profile.engagement_percent,
      follower_count: c.profile.followers,
    }));
}

/** Analytics tier: performance data; lookalikes only when asked for. */
export function analyticsRecord(
  state: SandboxState,
  platform: string,
  creator: Creator,
  lookalikesWanted: boolean,
): Record<string, unknown> {
  const rng = rngFor(state, platform, creator, 'analytics');
  const block = analyticsBlock(state, platform, creator, rng);
  if (AUDIENCE.has(platform))
    block.audience = audience(
      creator,
      rng,
      rngFor(state, platform, creator, 'audience-shape'),
      audiencePeople(state, platform, creator),
    );
  const result: Record<string, unknown> = { [platform]: block };
  if (lookalikesWanted) result.lookalikes = lookalikes(state, platform, creator, rng);
  return result;
}

/** Full tier: profile plus analytics; audience and lookalikes only when asked for. */
export function fullRecord(
  state: SandboxState,
  platform: string,
  creator: Creator,
  options: HandleOptions,
): Record<string, unknown> {
  const rng = rngFor(state, platform, creator, 'full');
  const profile = profileRecord(platform, creator);
  const block = { ...(profile[platform] as Record<string, unknown>), ...analyticsBlock(state, platform, creator, rng) };
  if (options.includeAudienceData && AUDIENCE.has(platform)) {
    block.audience = audience(
      creator,
      rng,
      rngFor(state, platform, creator, 'audience-shape'),
      audiencePeople(state, platform, creator),
    );
    if (platform === 'instagram') {
      block.sponsored_posts = creator.has_done_brand_deals ? posts(platform, creator, rng, 1) : [];
      block.past_sponsors = creator.brands.map((handle) => ({
        handle,
        post_count: intBetween(rng, 1, 6),
        post_ids: [],
      }));
    }
  }
  const result: Record<string, unknown> = {
    ...profile,
    [platform]: block,
    other_links: creator.link_in_bio ? [creator.link_in_bio] : [],
  };
  if (options.includeAudienceData && AUDIENCE.has(platform)) {
    result.audience_interests = [creator.niche, creator.sub_niche];
  }
  if (options.includeLookalikes) result.lookalikes = lookalikes(state, platform, creator, rng);
  return result;
}
