/** Campaign routes (sandbox-only body shapes; see the README's "sandbox shapes"). */
import { LISTENING_LIMITS } from '../../contract/limits.js';
import { intBetween, streamFor } from '../random.js';
import { ApiError, created, errorList, errorText, fieldError, json, type Reply } from '../respond.js';
import type { RouteContext } from '../router.js';
import { nextId } from '../state.js';
import { billOrPause, billToday } from './billing.js';
import { creatorList, extras, idParam, nameField, objectBody, page } from './common.js';
import { syncListening } from './generator.js';
import { campaignView, DAY_MS, listening, type Campaign, type CampaignPost } from './model.js';

const KNOWN = [
  'name',
  'days',
  'start_date',
  'end_date',
  'status',
  'creators',
  'paused_reason',
  'creators_count',
  'posts_count',
  'created_at',
  'updated_at',
];

function find(ctx: RouteContext): Campaign {
  const id = idParam(ctx, 'id', 'Campaign');
  const c = listening(ctx.state).campaigns.get(id);
  if (!c) throw new ApiError(errorText(404, 'Campaign not found.'));
  return c;
}

function days(body: Record<string, unknown>): number | undefined {
  const v = body.days;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 365)
    throw fieldError('days', 'Ensure this value is a whole number between 1 and 365.');
  return v;
}

function editable(c: Campaign): void {
  if (c.status === 'archived') throw new ApiError(errorList(400, ['This campaign is archived and cannot be changed.']));
}

export function list(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  return json(page(ctx, [...listening(ctx.state).campaigns.values()], campaignView));
}

export function create(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const body = objectBody(ctx);
  const name = nameField(body, true) as string;
  const d = days(body) ?? null;
  const refs = creatorList(body, false);
  const ls = listening(ctx.state);
  if ([...ls.campaigns.values()].filter((c) => c.status !== 'archived').length >= LISTENING_LIMITS.campaigns) {
    throw new ApiError(errorList(400, [`Campaign limit reached (${LISTENING_LIMITS.campaigns}); archive one first.`]));
  }
  const iso = new Date(now).toISOString();
  const c: Campaign = {
    id: nextId(ctx.state, 'listening_campaign'),
    name,
    status: 'active',
    paused_reason: null,
    days: d,
    start_date: new Date(now).toISOString().slice(0, 10),
    endMs: d === null ? null : now + d * DAY_MS,
    created_at: iso,
    updated_at: iso,
    extra: extras(body, KNOWN),
    creators: new Map(),
    posts: [],
  };
  for (const r of refs)
    c.creators.set(r.key, { platform: r.platform, platform_id: r.platform_id, added_at: iso, addedMs: now });
  ls.campaigns.set(c.id, c);
  billOrPause(ctx.state, now);
  return created(campaignView(c));
}

export function get(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  return json(campaignView(find(ctx)));
}

export function update(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const c = find(ctx);
  editable(c);
  const body = objectBody(ctx);
  const name = nameField(body, false);
  const d = days(body);
  const status = body.status;
  if (status !== undefined && status !== 'active' && status !== 'paused') {
    throw fieldError('status', `"${String(status)}" is not a valid choice. Use active or paused (DELETE archives).`);
  }
  if (d !== undefined) {
    c.days = d;
    c.endMs = Date.parse(`${c.start_date}T00:00:00Z`) + d * DAY_MS;
  }
  if (status === 'active' && c.status === 'paused') {
    c.status = 'active';
    if (!billToday(ctx.state, now)) {
      c.status = 'paused';
      throw new ApiError({
        status: 402,
        body: { error: 'Insufficient credits to resume monitoring; top up first.', error_code: 'insufficient_credits' },
      });
    }
    c.paused_reason = null;
  } else if (status === 'paused') {
    Object.assign(c, { status: 'paused', paused_reason: 'user' });
  }
  if (name !== undefined) c.name = name;
  Object.assign(c.extra, extras(body, KNOWN));
  c.updated_at = new Date(now).toISOString();
  if (c.status === 'active') billOrPause(ctx.state, now);
  return json(campaignView(c));
}

/** DELETE archives (service-spec.md): the campaign stays readable, monitoring stops. */
export function archive(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const c = find(ctx);
  Object.assign(c, { status: 'archived', paused_reason: null, updated_at: new Date(now).toISOString() });
  return json(campaignView(c));
}

export function listCreators(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  const c = find(ctx);
  return json(
    page(ctx, [...c.creators.values()], (w) => ({
      platform: w.platform,
      platform_id: w.platform_id,
      added_at: w.added_at,
      posts_count: c.posts.filter((p) => p.creator.platform === w.platform && p.creator.platform_id === w.platform_id)
        .length,
    })),
  );
}

export function postCreators(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const c = find(ctx);
  editable(c);
  const refs = creatorList(objectBody(ctx), true);
  const iso = new Date(now).toISOString();
  const fresh = refs.filter((r) => !c.creators.has(r.key));
  for (const r of fresh)
    c.creators.set(r.key, { platform: r.platform, platform_id: r.platform_id, added_at: iso, addedMs: now });
  if (c.status === 'active') billOrPause(ctx.state, now);
  return json({
    added: new Set(fresh.map((r) => r.key)).size,
    already_present: refs.length - fresh.length,
    creators_count: c.creators.size,
    status: c.status,
  });
}

export function deleteCreators(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  const c = find(ctx);
  editable(c);
  const refs = creatorList(objectBody(ctx), true);
  let removed = 0;
  for (const r of refs) if (c.creators.delete(r.key)) removed++;
  return json({ removed, not_found: refs.length - removed, creators_count: c.creators.size });
}

/** Deterministic metrics of a post: likes, comments, views, reach, EMV. */
interface PostMetrics {
  likes: number;
  comments: number;
  views: number;
  engagement_rate: number;
  estimated_reach: number;
  emv: number;
}

function metrics(seed: number, post: CampaignPost): PostMetrics {
  const rng = streamFor(seed, `post:${post.creator.platform}:${post.post_id}`);
  const views = intBetween(rng, 800, 250_000);
  const likes = Math.round(views * (0.02 + rng() * 0.1));
  const comments = Math.round(likes * (0.01 + rng() * 0.05));
  const reach = Math.round(views * (0.6 + rng() * 0.3));
  return {
    likes,
    comments,
    views,
    engagement_rate: Math.round(((likes + comments) / views) * 10_000) / 100,
    estimated_reach: reach,
    emv: Math.round((likes * 0.08 + comments * 0.5 + views * 0.01) * 100) / 100,
  };
}

export function overview(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const c = find(ctx);
  const posts = c.posts.map((p) => ({
    post_id: p.post_id,
    creator: p.creator,
    posted_at: p.posted_at,
    ...metrics(ctx.state.seed, p),
  }));
  const total = (k: string): number => posts.reduce((n, p) => n + Number((p as Record<string, unknown>)[k] ?? 0), 0);
  const trends = Array.from({ length: 7 }, (_, i) => {
    const day = new Date(now - (6 - i) * DAY_MS).toISOString().slice(0, 10);
    const mine = posts.filter((p) => p.posted_at.startsWith(day));
    return {
      date: day,
      posts: mine.length,
      engagement: mine.reduce((n, p) => n + p.likes + p.comments, 0),
      reach: mine.reduce((n, p) => n + p.estimated_reach, 0),
    };
  });
  const views = total('views');
  return json({
    campaign_id: c.id,
    name: c.name,
    status: c.status,
    creators_count: c.creators.size,
    totals: {
      posts: posts.length,
      likes: total('likes'),
      comments: total('comments'),
      views,
      engagement_rate: views > 0 ? Math.round(((total('likes') + total('comments')) / views) * 10_000) / 100 : 0,
      estimated_reach: total('estimated_reach'),
      emv: Math.round(total('emv') * 100) / 100,
    },
    posts,
    trends_7d: trends,
    report: {
      generated_at: new Date(now).toISOString(),
      summary: `${posts.length} post(s) from ${c.creators.size} creator(s); estimated reach ${total('estimated_reach')}.`,
    },
  });
}

export function content(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  const c = find(ctx);
  const newestFirst = [...c.posts].reverse();
  return json(page(ctx, newestFirst, (p) => ({ ...p, ...metrics(ctx.state.seed, p) })));
}
