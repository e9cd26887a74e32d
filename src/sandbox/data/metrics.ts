/**
 * Platform-specific metrics of a synthetic creator. Keys are the Discovery filter names of
 * api-contract.md §3.1, so a filter engine can compare `creator.metrics[filterKey]` directly.
 */
import type { DiscoveryPlatform } from '../../contract/platforms.js';
import { intBetween, pickSome, round, type Rng } from '../random.js';
import { GAMES, YT_TOPICS } from './dictionaries.js';

export interface InstagramMetrics {
  platform: 'instagram';
  number_of_posts: number;
  average_likes: number;
  average_comments: number;
  reels_percent: number;
  average_views_for_reels: number;
  has_videos: boolean;
}

export interface YoutubeMetrics {
  platform: 'youtube';
  subscribers: number;
  number_of_videos: number;
  average_views_on_long_videos: number;
  average_views_on_shorts: number;
  has_shorts: boolean;
  shorts_percentage: number;
  /** YouTube sub-topic names from the yt-topics dictionary. */
  topics: string[];
  is_monetizing: boolean;
  streams_live: boolean;
}

export interface TiktokMetrics {
  platform: 'tiktok';
  video_count: number;
  average_views: number;
  average_likes: number;
  average_comments: number;
  average_video_downloads: number;
  has_tik_tok_shop: boolean;
}

export interface TwitchMetrics {
  platform: 'twitch';
  avg_views_last_30_days: number;
  maximum_views_count: number;
  streamed_hours_last_30_days: number;
  streams_count_last_30_days: number;
  /** Game names from the games dictionary. */
  games_played: string[];
  is_twitch_partner: boolean;
}

export interface TwitterMetrics {
  platform: 'twitter';
  tweets_count: number;
  average_likes: number;
}

export interface OnlyfansMetrics {
  platform: 'onlyfans';
  /** USD per month; 0 for a free account. */
  subscription_price: number;
  has_free_account: boolean;
  number_of_photos: number;
  number_of_videos: number;
  number_of_likes: number;
  has_videos: boolean;
  has_live_streams: boolean;
}

export type PlatformMetrics =
  | InstagramMetrics
  | YoutubeMetrics
  | TiktokMetrics
  | TwitchMetrics
  | TwitterMetrics
  | OnlyfansMetrics;

const NON_GAME = GAMES.filter((g) => g.genre === 'Non-game').map((g) => g.name);
const REAL_GAMES = GAMES.filter((g) => g.genre !== 'Non-game').map((g) => g.name);

/** YouTube topics that suit a niche; niches not listed draw from Lifestyle. */
const NICHE_TOPICS: Record<string, string[]> = {
  Gaming: ['Gaming'],
  Music: ['Music'],
  Sports: ['Sports'],
  Entertainment: ['Entertainment'],
  Education: ['Knowledge'],
  Technology: ['Knowledge', 'Lifestyle'],
  'Business & Finance': ['Society', 'Knowledge'],
  'Health & Wellness': ['Society', 'Lifestyle'],
  'Art & Design': ['Entertainment', 'Lifestyle'],
};

function topicsFor(niche: string): string[] {
  const wanted = NICHE_TOPICS[niche] ?? ['Lifestyle'];
  return YT_TOPICS.filter((t) => wanted.includes(t.name)).flatMap((t) => t.sub_topics.map((s) => s.name));
}

const TOPICS_BY_NICHE = new Map<string, string[]>();

function topics(niche: string): string[] {
  let list = TOPICS_BY_NICHE.get(niche);
  if (!list) {
    list = topicsFor(niche);
    TOPICS_BY_NICHE.set(niche, list);
  }
  return list;
}

/** A factor in [lo, hi). */
const between = (rng: Rng, lo: number, hi: number): number => lo + rng() * (hi - lo);

export function platformMetrics(
  rng: Rng,
  platform: DiscoveryPlatform,
  followers: number,
  engagementPercent: number,
  niche: string,
): PlatformMetrics {
  const interactions = (followers * engagementPercent) / 100;
  switch (platform) {
    case 'instagram': {
      const reels = intBetween(rng, 0, 100);
      return {
        platform,
        number_of_posts: intBetween(rng, 12, 3500),
        average_likes: Math.round(interactions * 0.95),
        average_comments: Math.round(interactions * 0.05),
        reels_percent: reels,
        average_views_for_reels: reels === 0 ? 0 : Math.round(followers * between(rng, 0.15, 1.8)),
        has_videos: reels > 0 || rng() < 0.5,
      };
    }
    case 'youtube': {
      const shorts = rng() < 0.6 ? intBetween(rng, 1, 90) : 0;
      return {
        platform,
        subscribers: followers,
        number_of_videos: intBetween(rng, 5, 2500),
        average_views_on_long_videos: Math.round(followers * between(rng, 0.03, 0.6)),
        average_views_on_shorts: shorts === 0 ? 0 : Math.round(followers * between(rng, 0.1, 2.5)),
        has_shorts: shorts > 0,
        shorts_percentage: shorts,
        topics: pickSome(rng, topics(niche), intBetween(rng, 1, 3)),
        is_monetizing: followers >= 1000 && rng() < 0.75,
        streams_live: rng() < 0.15,
      };
    }
    case 'tiktok': {
      const views = Math.round(followers * between(rng, 0.2, 3));
      return {
        platform,
        video_count: intBetween(rng, 10, 2000),
        average_views: views,
        average_likes: Math.round(interactions * 0.9),
        average_comments: Math.round(interactions * 0.06),
        average_video_downloads: Math.round(views * between(rng, 0.001, 0.02)),
        has_tik_tok_shop: rng() < 0.12,
      };
    }
    case 'twitch': {
      const avg = Math.max(1, Math.round(followers * between(rng, 0.004, 0.05)));
      const streams = intBetween(rng, 1, 30);
      const pool = niche === 'Gaming' ? REAL_GAMES : NON_GAME;
      const games = pickSome(rng, pool, intBetween(rng, 1, 5));
      if (niche === 'Gaming' && rng() < 0.5) games.push('Just Chatting');
      return {
        platform,
        avg_views_last_30_days: avg,
        maximum_views_count: Math.round(avg * between(rng, 1.5, 8)),
        streamed_hours_last_30_days: Math.round(streams * between(rng, 1.5, 7)),
        streams_count_last_30_days: streams,
        games_played: [...new Set(games)],
        is_twitch_partner: followers >= 20_000 ? rng() < 0.6 : rng() < 0.02,
      };
    }
    case 'twitter':
      return {
        platform,
        tweets_count: intBetween(rng, 50, 120_000),
        average_likes: Math.round(interactions * 0.85),
      };
    case 'onlyfans': {
      const free = rng() < 0.25;
      return {
        platform,
        subscription_price: free ? 0 : round(between(rng, 4.99, 49.99), 2),
        has_free_account: free,
        number_of_photos: intBetween(rng, 20, 4000),
        number_of_videos: intBetween(rng, 0, 800),
        number_of_likes: Math.round(followers * between(rng, 2, 40)),
        has_videos: rng() < 0.85,
        has_live_streams: rng() < 0.3,
      };
    }
  }
}
