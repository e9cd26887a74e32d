/**
 * Sandbox routes: a creator's posts, connected socials and audience overlap.
 *
 *   POST /public/v1/creators/content/posts/     {platform, handle, count?, pagination_token?}   (§8.1)
 *   POST /public/v1/creators/socials/           {platform, handle}                              (§7)
 *   POST /public/v1/creators/audience/overlap/  {platform, creators: [2..10 handles or URLs]}    (§5)
 *
 * Posts answer `{"result": {platform, handle, posts: [...]}, "credits_cost": 0.03, "next_token": ...}`
 * with the posts the creator's `full` record shows first (newest first); `next_token` (null on the
 * last page) goes back as `pagination_token`. Page sizes are the contract's (src/contract
 * POSTS_PAGE_SIZES): Instagram a fixed 12 (`count` ignored), a `count` above the platform's maximum
 * is a 400. Socials answer `{"result": {platform, handle, socials: [{platform, handle, url}]},
 * "credits_cost": 0.5}`: the creator's other platforms, as its profile record lists them. Overlap
 * answers the documented shape (`basics`, `details`, `credits_cost`, `credits_left` as a number).
 * Nothing found (unknown creator, no posts on the page, no connected socials) is the free
 * not-found answer; a platform the route does not take is a 400 field error.
 */
import {
  OVERLAP_CREATORS,
  OVERLAP_PLATFORMS,
  CONTENT_PLATFORMS,
  POSTS_PAGE_SIZES,
  SOCIAL_PLATFORMS,
} from '../../contract/platforms.js';
import { CHARGED_MILLI } from '../../contract/prices.js';
import type { Creator } from '../data/creators.js';
import { creatorPosts, decodePostsCursor, encodePostsCursor, postCount } from '../enrichment/creator-posts.js';
import { overlapReport } from '../enrichment/overlap.js';
import { findCreator } from '../enrichment/records.js';
import { BodyReader } from '../enrichment/validate.js';
import { normalizeHandle } from '../../contract/handles.js';
import { charge, toCredits } from '../ledger.js';
import { fieldError, json, type Reply } from '../respond.js';
import type { RouteContext, Router } from '../router.js';
import { found, notFoundResult } from './enrichment.js';

const POSTS = '/public/v1/creators/content/posts/';
const SOCIALS = '/public/v1/creators/socials/';
const OVERLAP = '/public/v1/creators/audience/overlap/';

function posts(ctx: RouteContext): Reply {
  const body = new BodyReader(ctx.body);
  const platform = body.choice('platform', CONTENT_PLATFORMS);
  const handle = body.string('handle', true);
  const count = body.int('count', 1);
  const token = body.string('pagination_token', false, 200);
  const size = platform ? POSTS_PAGE_SIZES[platform] : undefined;
  if (size && !size.fixed && count !== undefined && count > size.max)
    body.errors.count = [`Ensure this value is less than or equal to ${size.max}.`];
  body.done();
  if (!platform || !handle || !size) return notFoundResult('No data found.');
  const offset = token === undefined ? 0 : decodePostsCursor(token);
  if (offset === undefined) throw fieldError('pagination_token', 'Invalid pagination token.');
  const creator = findCreator(ctx.state, platform, handle);
  if (!creator) return notFoundResult(`No ${platform} creator found for '${handle}'.`);
  const pageSize = size.fixed ? size.default : (count ?? size.default);
  const list = creatorPosts(ctx.state.seed, platform, creator, offset, pageSize);
  if (list.length === 0)
    return json({ result: null, credits_cost: 0, status: 'not_found', message: 'No posts.', next_token: null });
  const next = offset + list.length < postCount(creator) ? encodePostsCursor(offset + list.length) : null;
  const reply = found(
    ctx,
    POSTS,
    CHARGED_MILLI.creatorPosts,
    { platform, handle: creator.profile.username, posts: list },
    `posts ${platform}:${creator.profile.username}`,
  );
  (reply.body as Record<string, unknown>).next_token = next;
  return reply;
}

function socials(ctx: RouteContext): Reply {
  const body = new BodyReader(ctx.body);
  const platform = body.choice('platform', SOCIAL_PLATFORMS);
  const handle = body.string('handle', true);
  body.done();
  if (!platform || !handle) return notFoundResult('No data found.');
  const creator = findCreator(ctx.state, platform, handle);
  if (!creator) return notFoundResult(`No ${platform} creator found for '${handle}'.`);
  const username = creator.profile.username;
  // The same presence the profile record's `other_platforms` lists; the person uses one username everywhere.
  const list = creator.other_platforms
    .filter((p) => p !== platform)
    .map((p) => ({ platform: p, handle: username, url: `https://${p}.com/${username}` }));
  if (list.length === 0) return notFoundResult(`No connected socials found for '${handle}'.`);
  return found(
    ctx,
    SOCIALS,
    CHARGED_MILLI.connectedSocials,
    { platform, handle: username, socials: list },
    `socials ${platform}:${username}`,
  );
}

function overlap(ctx: RouteContext): Reply {
  const body = new BodyReader(ctx.body);
  const platform = body.choice('platform', OVERLAP_PLATFORMS);
  const raw = (ctx.body as Record<string, unknown>).creators;
  let names: string[] = [];
  if (raw === undefined || raw === null) body.errors.creators = ['This field is required.'];
  else if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string'))
    body.errors.creators = ['Expected a list of strings.'];
  else if (raw.length < OVERLAP_CREATORS.min || raw.length > OVERLAP_CREATORS.max) {
    body.errors.creators = [`Give between ${OVERLAP_CREATORS.min} and ${OVERLAP_CREATORS.max} creators.`];
  } else {
    names = raw as string[];
    const keys = names.map(normalizeHandle);
    if (keys.some((k) => !k)) body.errors.creators = ['This field may not be blank.'];
    else if (new Set(keys).size !== keys.length) body.errors.creators = ['Each creator may appear only once.'];
  }
  body.done();
  if (!platform) return notFoundResult('No data found.');
  const creators: Creator[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const c = findCreator(ctx.state, platform, name);
    if (c) creators.push(c);
    else missing.push(name);
  }
  if (missing.length > 0) {
    return json({
      credits_cost: 0,
      credits_left: toCredits(ctx.state.ledger.balanceMilli),
      status: false,
      success: false,
      message: `No ${platform} creator found for: ${missing.join(', ')}.`,
    });
  }
  const report = overlapReport(ctx.state.seed, platform, creators);
  const milli = CHARGED_MILLI.audienceOverlap;
  charge(ctx.state, OVERLAP, milli, `overlap ${platform}:${creators.map((c) => c.profile.username).join(',')}`);
  return json({
    credits_cost: toCredits(milli),
    credits_left: toCredits(ctx.state.ledger.balanceMilli),
    status: true,
    success: true,
    ...report,
  });
}

export function register(router: Router): void {
  router.post(POSTS, posts);
  router.post(SOCIALS, socials);
  router.post(OVERLAP, overlap);
}
