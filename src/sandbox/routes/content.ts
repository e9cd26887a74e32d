/**
 * Sandbox routes: post details (api-contract.md §8.2).
 *
 *   POST /public/v1/creators/content/details/  {platform, post_id, content_type, pagination_token?}
 *
 * `content_type` (alias `type`, which the docs also name) is `data` (default), `comments`,
 * `transcript` or `audio`; YouTube has no `audio` (400). Answers `{"result": {...}, "credits_cost": 0.03,
 * "credits_left": 999.97}`;
 * comments come 25 a page as `result.comments`, with the cursor for the next page in top-level
 * `next_token` (null on the last page), sent back as `pagination_token`. An unknown post (ids
 * beginning with `missing`) and an empty comments page answer `{"result": null, "credits_cost": 0,
 * "status": "not_found"}`-style replies and cost nothing.
 */
import { CONTENT_PLATFORMS } from '../../contract/platforms.js';
import { CHARGED_MILLI } from '../../contract/prices.js';
import {
  audio,
  commentsPage,
  CONTENT_TYPES,
  decodeCursor,
  encodeCursor,
  postData,
  transcript,
} from '../enrichment/posts.js';
import { BodyReader } from '../enrichment/validate.js';
import { errorText, fieldError, json, type Reply } from '../respond.js';
import type { RouteContext, Router } from '../router.js';
import { toCredits } from '../ledger.js';
import { found, notFoundResult } from './enrichment.js';

const ROUTE = '/public/v1/creators/content/details/';

/** A paid answer also says the balance left, as a number (`credits_left`, as T1's mock of this route does). */
function withBalance(ctx: RouteContext, reply: Reply): Reply {
  if (reply.body && typeof reply.body === 'object')
    (reply.body as Record<string, unknown>).credits_left = toCredits(ctx.state.ledger.balanceMilli);
  return reply;
}

function details(ctx: RouteContext): Reply {
  const body = new BodyReader(ctx.body);
  const platform = body.choice('platform', CONTENT_PLATFORMS);
  const postId = body.string('post_id', true, 100);
  if (postId && !/^[A-Za-z0-9_-]+$/.test(postId)) body.errors.post_id = ['Enter the platform post id, not a URL.'];
  const kindField = body.has('content_type') || !body.has('type') ? 'content_type' : 'type';
  const kind = body.choice(kindField, CONTENT_TYPES, 'data');
  const token = body.string('pagination_token', false, 200);
  body.done();
  if (!platform || !postId || !kind) return notFoundResult('No data found.');
  if (platform === 'youtube' && kind === 'audio') return errorText(400, 'Audio is not available for YouTube posts.');
  if (postId.toLowerCase().startsWith('missing'))
    return notFoundResult(`No ${platform} post found with id '${postId}'.`);
  const seed = ctx.state.seed;
  const price = CHARGED_MILLI.postDetails;
  switch (kind) {
    case 'comments': {
      const offset = token === undefined ? 0 : decodeCursor(token);
      if (offset === undefined) throw fieldError('pagination_token', 'Invalid pagination token.');
      const page = commentsPage(seed, platform, postId, offset);
      if (page.comments.length === 0)
        return json({ result: null, credits_cost: 0, status: 'not_found', message: 'No comments.', next_token: null });
      const reply = found(
        ctx,
        ROUTE,
        price,
        { post_id: postId, platform, comments: page.comments },
        `comments ${platform}:${postId}`,
      );
      (reply.body as Record<string, unknown>).next_token = page.next === null ? null : encodeCursor(page.next);
      return withBalance(ctx, reply);
    }
    case 'transcript':
      return withBalance(
        ctx,
        found(ctx, ROUTE, price, transcript(seed, platform, postId), `transcript ${platform}:${postId}`),
      );
    case 'audio':
      return withBalance(ctx, found(ctx, ROUTE, price, audio(seed, platform, postId), `audio ${platform}:${postId}`));
    default:
      return withBalance(ctx, found(ctx, ROUTE, price, postData(seed, platform, postId), `data ${platform}:${postId}`));
  }
}

export function register(router: Router): void {
  router.post(ROUTE, details);
}
