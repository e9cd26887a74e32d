/** Subscription routes (sandbox-only body shapes; see the README's "sandbox shapes"). */
import { LISTENING_LIMITS } from '../../contract/limits.js';
import { ApiError, created, errorList, errorText, fieldError, json, noContent, type Reply } from '../respond.js';
import type { RouteContext } from '../router.js';
import { nextId } from '../state.js';
import { billOrPause, billToday } from './billing.js';
import { creatorList, extras, idParam, nameField, objectBody, page } from './common.js';
import { deliveryOf } from './delivery.js';
import { syncListening } from './generator.js';
import { EVENT_TYPES, listening, subscriptionView, type EventType, type Subscription } from './model.js';

const KNOWN = [
  'name',
  'event_types',
  'webhook_url',
  'status',
  'creators',
  'paused_reason',
  'creators_count',
  'created_at',
  'updated_at',
];

function find(ctx: RouteContext): Subscription {
  const id = idParam(ctx, 'id', 'Subscription');
  const s = listening(ctx.state).subscriptions.get(id);
  if (!s) throw new ApiError(errorText(404, 'Subscription not found.'));
  return s;
}

function eventTypes(body: Record<string, unknown>): EventType[] | undefined {
  const v = body.event_types;
  if (v === undefined) return undefined;
  const list = typeof v === 'string' ? v.split(',').map((t) => t.trim()) : v;
  if (!Array.isArray(list) || list.length === 0)
    throw fieldError('event_types', 'Expected a non-empty list of event types.');
  for (const t of list) {
    if (!(EVENT_TYPES as readonly unknown[]).includes(t))
      throw fieldError('event_types', `"${String(t)}" is not a valid choice.`);
  }
  return [...new Set(list as EventType[])];
}

function webhookUrl(body: Record<string, unknown>): string | null | undefined {
  const v = body.webhook_url;
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string' || !/^https?:\/\/[^\s]+$/i.test(v)) throw fieldError('webhook_url', 'Enter a valid URL.');
  return v;
}

/** Adds creators, bills today's share of the new ones and pauses monitoring if that cannot be paid. */
function addCreators(
  ctx: RouteContext,
  s: Subscription,
  refs: ReturnType<typeof creatorList>,
  now: number,
): { added: number; already_present: number } {
  const ls = listening(ctx.state);
  const distinct = new Set<string>();
  for (const sub of ls.subscriptions.values()) for (const k of sub.creators.keys()) distinct.add(k);
  for (const c of ls.campaigns.values()) for (const k of c.creators.keys()) distinct.add(k);
  const fresh = refs.filter((r) => !s.creators.has(r.key));
  if (new Set([...distinct, ...fresh.map((r) => r.key)]).size > LISTENING_LIMITS.creators) {
    throw new ApiError(
      errorList(400, [`Monitoring is limited to ${LISTENING_LIMITS.creators} distinct creators per account.`]),
    );
  }
  const iso = new Date(now).toISOString();
  for (const r of fresh)
    s.creators.set(r.key, { platform: r.platform, platform_id: r.platform_id, added_at: iso, addedMs: now });
  if (fresh.length > 0) s.updated_at = iso;
  if (s.status === 'active') billOrPause(ctx.state, now);
  return { added: new Set(fresh.map((r) => r.key)).size, already_present: refs.length - fresh.length };
}

export function list(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  return json(page(ctx, [...listening(ctx.state).subscriptions.values()], subscriptionView));
}

export function create(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const body = objectBody(ctx);
  const name = nameField(body, true) as string;
  const types = eventTypes(body) ?? [...EVENT_TYPES];
  const hook = webhookUrl(body) ?? null;
  const refs = creatorList(body, false);
  const ls = listening(ctx.state);
  if (ls.subscriptions.size >= LISTENING_LIMITS.subscriptions) {
    throw new ApiError(errorList(400, [`Subscription limit reached (${LISTENING_LIMITS.subscriptions}).`]));
  }
  const iso = new Date(now).toISOString();
  const s: Subscription = {
    id: nextId(ctx.state, 'listening_subscription'),
    name,
    status: 'active',
    paused_reason: null,
    event_types: types,
    webhook_url: hook,
    created_at: iso,
    updated_at: iso,
    extra: extras(body, KNOWN),
    creators: new Map(),
  };
  ls.subscriptions.set(s.id, s);
  addCreators(ctx, s, refs, now);
  return created(subscriptionView(s));
}

export function get(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  return json(subscriptionView(find(ctx)));
}

export function update(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const s = find(ctx);
  const body = objectBody(ctx);
  const name = nameField(body, false);
  const types = eventTypes(body);
  const hook = webhookUrl(body);
  const status = body.status;
  if (status !== undefined && status !== 'active' && status !== 'paused') {
    throw fieldError('status', `"${String(status)}" is not a valid choice. Use active or paused.`);
  }
  const iso = new Date(now).toISOString();
  if (status === 'active' && s.status === 'paused') {
    // Resuming after a pause for credits: today's share must be payable first.
    s.status = 'active';
    if (!billToday(ctx.state, now)) {
      s.status = 'paused';
      throw new ApiError({
        status: 402,
        body: { error: 'Insufficient credits to resume monitoring; top up first.', error_code: 'insufficient_credits' },
      });
    }
    s.paused_reason = null;
  } else if (status === 'paused') {
    Object.assign(s, { status: 'paused', paused_reason: 'user' });
  }
  if (name !== undefined) s.name = name;
  if (types !== undefined) s.event_types = types;
  if (hook !== undefined) s.webhook_url = hook;
  Object.assign(s.extra, extras(body, KNOWN));
  s.updated_at = iso;
  return json(subscriptionView(s));
}

export function remove(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  const s = find(ctx);
  listening(ctx.state).subscriptions.delete(s.id);
  return noContent();
}

export function listCreators(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  const s = find(ctx);
  const events = listening(ctx.state).events.filter((e) => e.subscription_id === s.id);
  return json(
    page(ctx, [...s.creators.values()], (c) => ({
      platform: c.platform,
      platform_id: c.platform_id,
      added_at: c.added_at,
      events_count: events.filter((e) => e.creator.platform === c.platform && e.creator.platform_id === c.platform_id)
        .length,
    })),
  );
}

export function postCreators(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const s = find(ctx);
  const result = addCreators(ctx, s, creatorList(objectBody(ctx), true), now);
  return json({ ...result, creators_count: s.creators.size, status: s.status, paused_reason: s.paused_reason });
}

/** Per-creator statistics of a subscription, the rows of both `details/` and its CSV export. */
function stats(ctx: RouteContext, s: Subscription, now: number): Record<string, unknown>[] {
  const ls = listening(ctx.state);
  const events = ls.events.filter((e) => e.subscription_id === s.id);
  return [...s.creators.values()].map((c) => {
    const mine = events.filter((e) => e.creator.platform === c.platform && e.creator.platform_id === c.platform_id);
    const delivered = mine.map((e) => deliveryOf(ctx.state.seed, e, now, ls.deliveryFailureRate));
    return {
      platform: c.platform,
      platform_id: c.platform_id,
      added_at: c.added_at,
      events: mine.length,
      new_post: mine.filter((e) => e.event_type === 'new_post').length,
      bio_change: mine.filter((e) => e.event_type === 'bio_change').length,
      follower_threshold: mine.filter((e) => e.event_type === 'follower_threshold').length,
      delivered: delivered.filter((d) => d.delivery_status === 'sent').length,
      failed: delivered.filter((d) => d.delivery_status === 'failed').length,
      last_event_at: mine.length > 0 ? mine[mine.length - 1]?.date_occurance : null,
    };
  });
}

export function details(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const s = find(ctx);
  const rows = stats(ctx, s, now);
  const sum = (k: string): number => rows.reduce((n, r) => n + Number(r[k] ?? 0), 0);
  return json({
    subscription_id: s.id,
    name: s.name,
    status: s.status,
    creators_count: s.creators.size,
    events_total: sum('events'),
    events_by_type: {
      new_post: sum('new_post'),
      bio_change: sum('bio_change'),
      follower_threshold: sum('follower_threshold'),
    },
    deliveries: { sent: sum('delivered'), failed: sum('failed') },
    creators: rows,
  });
}

export function exportCsv(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const s = find(ctx);
  const rows = stats(ctx, s, now);
  const header = [
    'platform',
    'platform_id',
    'added_at',
    'events',
    'new_post',
    'bio_change',
    'follower_threshold',
    'delivered',
    'failed',
    'last_event_at',
  ];
  const cell = (v: unknown): string => {
    const t = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  const text = [header.join(','), ...rows.map((r) => header.map((h) => cell(r[h])).join(','))].join('\r\n') + '\r\n';
  return {
    status: 200,
    raw: text,
    contentType: 'text/csv; charset=utf-8',
    headers: { 'Content-Disposition': `attachment; filename="subscription-${s.id}-details.csv"` },
  };
}
