/**
 * A creator's own posts (api-contract.md §8.1), newest first, derived from the seed and the creator
 * alone: post `i` of a creator is the same whichever route shows it, so the posts route pages
 * through exactly the posts the creator's `full` (and `analytics`) record lists in `post_data`.
 * A creator has as many posts as its media count, capped at `MAX_POSTS` to keep paging short.
 */
import type { Creator } from '../data/creators.js';
import { digitString, hash32, intBetween, streamFor } from '../random.js';

/** At most this many posts per creator (pages: Instagram 12, TikTok and YouTube up to 35 / 50). */
export const MAX_POSTS = 60;
/** Posts the enrichment records show in `post_data`: the first (newest) of the list. */
export const RECORD_POSTS = 3;

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** How many posts, videos or tweets the creator has published (its records' `media_count`). */
export function mediaCount(creator: Creator): number {
  const m = creator.metrics as unknown as Record<string, unknown>;
  const n = m.number_of_posts ?? m.number_of_videos ?? m.video_count ?? m.tweets_count ?? m.number_of_photos;
  return typeof n === 'number' ? n : 0;
}

/** How many posts the creator has (0..MAX_POSTS). */
export function postCount(creator: Creator): number {
  return Math.max(0, Math.min(MAX_POSTS, mediaCount(creator)));
}

function postId(seed: number, platform: string, creator: Creator, i: number): string {
  const rng = streamFor(seed, `post-id:${platform}:${creator.user_id}:${i}`);
  // TikTok ids are 19 digits; Instagram shortcodes and YouTube video ids 11 characters.
  if (platform === 'tiktok') return `7${digitString(rng, 18)}`;
  return Array.from({ length: 11 }, () => ID_CHARS[Math.floor(rng() * ID_CHARS.length)]).join('');
}

function postUrl(platform: string, username: string, id: string): string {
  if (platform === 'youtube') return `https://www.youtube.com/watch?v=${id}`;
  if (platform === 'tiktok') return `https://www.tiktok.com/@${username}/video/${id}`;
  return `https://www.${platform}.com/p/${id}/`;
}

function postType(platform: string, r: number): string {
  if (platform === 'youtube') return r < 0.3 ? 'short' : 'video';
  if (platform !== 'instagram') return 'video';
  return r < 0.45 ? 'image' : r < 0.8 ? 'reel' : 'carousel';
}

/** Post `i` (0 = newest) of a creator on a platform. */
export function creatorPost(seed: number, platform: string, creator: Creator, i: number): Record<string, unknown> {
  const rng = streamFor(seed, `post:${platform}:${creator.user_id}:${i}`);
  const id = postId(seed, platform, creator, i);
  const type = postType(platform, rng());
  const likes = Math.round(((creator.profile.followers * creator.profile.engagement_percent) / 100) * (0.6 + rng()));
  const views = platform === 'instagram' && type === 'image' ? null : likes * intBetween(rng, 5, 40);
  // Newest first, one every few days back from the sandbox's reference date.
  const created = Date.UTC(2026, 9, 30) - (i * 3 + (hash32(id) % 3)) * 86_400_000;
  return {
    post_id: id,
    created_at: new Date(created).toISOString(),
    type,
    caption: `${creator.sub_niche} #${creator.hashtags[i % Math.max(1, creator.hashtags.length)] ?? 'post'}`,
    post_url: postUrl(platform, creator.profile.username, id),
    media: [
      {
        media_id: `${id}_1`,
        type: type === 'image' || type === 'carousel' ? 'image' : 'video',
        url: `https://cdn.sandbox.invalid/${platform}/${id}.jpg`,
      },
    ],
    engagement: { likes, comments: Math.round(likes * 0.04), views },
  };
}

/** Posts `from` .. `from + count - 1` of a creator (fewer at the end of the list). */
export function creatorPosts(
  seed: number,
  platform: string,
  creator: Creator,
  from: number,
  count: number,
): Record<string, unknown>[] {
  const end = Math.min(postCount(creator), from + count);
  const out: Record<string, unknown>[] = [];
  for (let i = from; i < end; i++) out.push(creatorPost(seed, platform, creator, i));
  return out;
}

/** The opaque cursor of a posts offset, and back (`undefined` when malformed). */
export function encodePostsCursor(offset: number): string {
  return Buffer.from(`p:${offset}`).toString('base64url');
}
export function decodePostsCursor(token: string): number | undefined {
  const m = /^p:(\d{1,6})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}
