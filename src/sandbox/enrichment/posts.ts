/**
 * Post details (api-contract.md §8.2): deterministic synthetic posts derived from the post id, so
 * the same id always answers the same data, comments, transcript or audio. Ids beginning with
 * `missing` are never found.
 */
import { hash32, intBetween, mulberry32, pick, type Rng } from '../random.js';

export const CONTENT_TYPES = ['data', 'comments', 'transcript', 'audio'] as const;
/** Comments per page. */
export const COMMENTS_PAGE = 25;

const WORDS =
  'love this so good amazing wow where is that from need this now the best ever great video thanks for sharing'.split(
    ' ',
  );

function rngFor(seed: number, platform: string, postId: string, purpose: string): Rng {
  return mulberry32(hash32(`${seed}:${purpose}:${platform}:${postId}`));
}

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(rng, WORDS));
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function postUrl(platform: string, postId: string): string {
  if (platform === 'youtube') return `https://www.youtube.com/watch?v=${postId}`;
  if (platform === 'tiktok') return `https://www.tiktok.com/@creator/video/${postId}`;
  return `https://www.instagram.com/p/${postId}/`;
}

/** How many comments the post has (0..130). */
export function commentCount(seed: number, platform: string, postId: string): number {
  return hash32(`${seed}:comments:${platform}:${postId}`) % 131;
}

export function postData(seed: number, platform: string, postId: string): Record<string, unknown> {
  const rng = rngFor(seed, platform, postId, 'post');
  const likes = intBetween(rng, 10, 250_000);
  const created = Date.UTC(2026, 8, 1) + intBetween(rng, 0, 60) * 86_400_000;
  return {
    post_id: postId,
    platform,
    post_url: postUrl(platform, postId),
    created_at: new Date(created).toISOString(),
    caption: sentence(rng, intBetween(rng, 4, 12)),
    owner: { username: `creator_${hash32(postId) % 10_000}` },
    media: [
      {
        media_id: `${postId}_1`,
        type: platform === 'instagram' && rng() < 0.5 ? 'image' : 'video',
        url: `https://cdn.sandbox.invalid/${platform}/${postId}.mp4`,
      },
    ],
    engagement: {
      likes,
      comments: commentCount(seed, platform, postId),
      views: platform === 'instagram' ? null : likes * intBetween(rng, 5, 40),
    },
  };
}

/** One page of comments from `offset`; `next` is the offset of the next page, or null. */
export function commentsPage(
  seed: number,
  platform: string,
  postId: string,
  offset: number,
): { comments: Record<string, unknown>[]; next: number | null } {
  const total = commentCount(seed, platform, postId);
  const comments: Record<string, unknown>[] = [];
  for (let i = offset; i < Math.min(total, offset + COMMENTS_PAGE); i++) {
    const rng = rngFor(seed, platform, `${postId}#${i}`, 'comment');
    comments.push({
      comment_id: `${postId}c${i + 1}`,
      username: `fan_${hash32(`${postId}:${i}`) % 100_000}`,
      text: sentence(rng, intBetween(rng, 2, 9)),
      like_count: intBetween(rng, 0, 500),
      created_at: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000).toISOString(),
    });
  }
  const next = offset + COMMENTS_PAGE < total ? offset + COMMENTS_PAGE : null;
  return { comments, next };
}

export function transcript(seed: number, platform: string, postId: string): Record<string, unknown> {
  const rng = rngFor(seed, platform, postId, 'transcript');
  const segments = Array.from({ length: intBetween(rng, 2, 5) }, (_, i) => ({
    start: i * 4,
    end: i * 4 + 4,
    text: sentence(rng, intBetween(rng, 4, 10)),
  }));
  return { post_id: postId, platform, language: 'en', text: segments.map((s) => s.text).join(' '), segments };
}

export function audio(seed: number, platform: string, postId: string): Record<string, unknown> {
  const rng = rngFor(seed, platform, postId, 'audio');
  return {
    post_id: postId,
    platform,
    audio_url: `https://cdn.sandbox.invalid/audio/${postId}.m4a`,
    format: 'm4a',
    duration_seconds: intBetween(rng, 5, 180),
  };
}

/** The opaque cursor for a comments offset, and back (`undefined` when malformed). */
export function encodeCursor(offset: number): string {
  return Buffer.from(`c:${offset}`).toString('base64url');
}
export function decodeCursor(token: string): number | undefined {
  const m = /^c:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}
