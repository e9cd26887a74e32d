/** `GET events/`, `GET events/{id}/`, `GET usage/` and the `/_sandbox/listening` control routes. */
import { parseJson } from '../body.js';
import { normalizeHandle } from '../../contract/handles.js';
import { toCredits } from '../ledger.js';
import { intBetween, streamFor } from '../random.js';
import { intParam, stringParam } from '../params.js';
import { ApiError, errorText, fieldErrors, json, type Reply } from '../respond.js';
import type { RouteContext } from '../router.js';
import { dailyMilli } from './billing.js';
import { idParam, page } from './common.js';
import { deliveryOf, eventView } from './delivery.js';
import { syncListening } from './generator.js';
import {
  campaignRunning,
  DAY_MS,
  EVENT_TYPES,
  listening,
  listeningNow,
  monitoredCreators,
  type ListeningEvent,
  type ListeningState,
} from './model.js';
import { LISTENING_LIMITS } from '../../contract/limits.js';

export function listEvents(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const ls = listening(ctx.state);
  const subscription = intParam(ctx.query, 'subscription_id', undefined, { min: 1 });
  const type = stringParam(ctx.query, 'event_type');
  const creatorRaw = stringParam(ctx.query, 'creator');
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
    // The spec lists 422 for the events list; an unknown event type is the sandbox's case for it.
    throw new ApiError(
      fieldErrors(422, {
        event_type: [`Select a valid choice. ${type} is not one of the available choices: ${EVENT_TYPES.join(', ')}.`],
      }),
    );
  }
  const creator = creatorRaw === undefined ? undefined : normalizeHandle(creatorRaw);
  const matching = matchingEvents(ls, { subscription, type, creator });
  // Newest first without copying the list: a page is a reversed slice (a million events stay cheap to page).
  const ordered: Pick<readonly ListeningEvent[], 'length' | 'slice'> =
    ls.order === 'desc'
      ? {
          length: matching.length,
          slice: (from = 0, to = matching.length) =>
            matching.slice(Math.max(0, matching.length - to), Math.max(0, matching.length - from)).reverse(),
        }
      : matching;
  return json(page(ctx, ordered, (e) => eventView(ctx.state.seed, e, now, ls.deliveryFailureRate)));
}

/** The last filtered list, kept while no event is added (paging through a big backlog filters once). */
const filtered = new WeakMap<ListeningState, { key: string; length: number; list: ListeningEvent[] }>();

/** The events matching the filters, in id order: the list itself when there are none. */
function matchingEvents(
  ls: ListeningState,
  f: { subscription: number | undefined; type: string | undefined; creator: string | undefined },
): ListeningEvent[] {
  if (f.subscription === undefined && f.type === undefined && f.creator === undefined) return ls.events;
  const key = JSON.stringify(f);
  const hit = filtered.get(ls);
  if (hit && hit.key === key && hit.length === ls.events.length) return hit.list;
  const list = ls.events.filter(
    (e) =>
      (f.subscription === undefined || e.subscription_id === f.subscription) &&
      (f.type === undefined || e.event_type === f.type) &&
      (f.creator === undefined || e.creator.platform_id === f.creator),
  );
  filtered.set(ls, { key, length: ls.events.length, list });
  return list;
}

export function getEvent(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const ls = listening(ctx.state);
  const id = idParam(ctx, 'id', 'Event');
  const event = ls.events[id - 1];
  if (!event) throw new ApiError(errorText(404, 'Event not found.'));
  const delivery = deliveryOf(ctx.state.seed, event, now, ls.deliveryFailureRate);
  return json({ ...eventView(ctx.state.seed, event, now, ls.deliveryFailureRate), delivery_history: delivery.history });
}

export function usage(ctx: RouteContext): Reply {
  const now = syncListening(ctx.state);
  const ls = listening(ctx.state);
  const subs = [...ls.subscriptions.values()];
  const camps = [...ls.campaigns.values()];
  const paused =
    subs.some((s) => s.paused_reason === 'insufficient_credits') ||
    camps.some((c) => c.paused_reason === 'insufficient_credits');
  return json({
    active_subscriptions: subs.filter((s) => s.status === 'active').length,
    paused_subscriptions: subs.filter((s) => s.status === 'paused').length,
    subscription_limit: LISTENING_LIMITS.subscriptions,
    active_campaigns: camps.filter((c) => campaignRunning(c, now)).length,
    archived_campaigns: camps.filter((c) => c.status === 'archived').length,
    campaign_limit: LISTENING_LIMITS.campaigns,
    monitored_creators: monitoredCreators(ls, now).size,
    creator_limit: LISTENING_LIMITS.creators,
    credits_per_creator_day: 0.3,
    estimated_daily_credits: toCredits(dailyMilli(ls, now)),
    billing_day: ls.billing.day ?? null,
    billed_creators_today: ls.billing.creators.size,
    monitoring_status: paused ? 'paused_insufficient_credits' : 'active',
  });
}

function controlView(ctx: RouteContext): Record<string, unknown> {
  const ls = listening(ctx.state);
  return {
    now: new Date(listeningNow(ctx.state)).toISOString(),
    offset_ms: ls.offsetMs,
    events: ls.events.length,
    order: ls.order,
    delivery_failure_rate: ls.deliveryFailureRate,
    billing: { day: ls.billing.day ?? null, creators: ls.billing.creators.size },
  };
}

function controlBody(ctx: RouteContext): Record<string, unknown> {
  const parsed = parseJson(ctx.rawBody.length > 0 ? ctx.rawBody : Buffer.from('{}'));
  if (!parsed.ok) throw new ApiError(parsed.reply);
  const b = parsed.body;
  if (!b || typeof b !== 'object' || Array.isArray(b))
    throw new ApiError(fieldErrors(400, { non_field_errors: ['Expected a JSON object.'] }));
  return b as Record<string, unknown>;
}

export function controlState(ctx: RouteContext): Reply {
  syncListening(ctx.state);
  return json(controlView(ctx));
}

/** Most listening time one `advance` may move: a year and a day. */
export const MAX_ADVANCE_DAYS = 366;
/**
 * Listening time generated between two yields to the event loop: an hour for up to 1,000 watched
 * creators, shorter for more (down to 10 minutes), so one step stays around a tenth of a second.
 */
function advanceStepMs(watched: number): number {
  return Math.max(600_000, Math.min(3_600_000, Math.floor((3_600_000 * 1_000) / Math.max(1, watched))));
}

/**
 * `POST /_sandbox/listening/advance {"seconds"|"minutes"|"hours"|"days": n}`: moves listening time
 * forward, at most MAX_ADVANCE_DAYS in all. The world is generated a step at a time (advanceStepMs)
 * with a yield to the event loop in between, so other requests and signals are served while it
 * works, and a closing sandbox stops it at the next step.
 */
export async function controlAdvance(ctx: RouteContext): Promise<Reply> {
  const b = controlBody(ctx);
  const units: Record<string, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: DAY_MS };
  let ms = 0;
  for (const [k, v] of Object.entries(b)) {
    const unit = units[k];
    if (
      unit === undefined ||
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < 0 ||
      v * unit > MAX_ADVANCE_DAYS * DAY_MS
    ) {
      throw new ApiError(
        fieldErrors(400, {
          [k]: [`Expected seconds, minutes, hours or days as a number from 0 to ${MAX_ADVANCE_DAYS} days in all.`],
        }),
      );
    }
    ms += Math.round(v * unit);
  }
  if (ms > MAX_ADVANCE_DAYS * DAY_MS) {
    throw new ApiError(fieldErrors(400, { non_field_errors: [`At most ${MAX_ADVANCE_DAYS} days in one advance.`] }));
  }
  syncListening(ctx.state);
  for (let left = ms; left > 0 && !ctx.signal.aborted; ) {
    const ls = listening(ctx.state);
    const step = Math.min(left, advanceStepMs(monitoredCreators(ls, listeningNow(ctx.state)).size));
    ls.offsetMs += step;
    syncListening(ctx.state);
    left -= step;
    if (left > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return json(controlView(ctx));
}

/** `POST /_sandbox/listening/config {"order": "asc"|"desc", "delivery_failure_rate": 0..1}`. */
export function controlConfig(ctx: RouteContext): Reply {
  const b = controlBody(ctx);
  const ls = listening(ctx.state);
  if (b.order !== undefined) {
    if (b.order !== 'asc' && b.order !== 'desc') throw new ApiError(fieldErrors(400, { order: ['Use asc or desc.'] }));
    ls.order = b.order;
  }
  if (b.delivery_failure_rate !== undefined) {
    const r = b.delivery_failure_rate;
    if (typeof r !== 'number' || r < 0 || r > 1)
      throw new ApiError(fieldErrors(400, { delivery_failure_rate: ['Expected a number from 0 to 1.'] }));
    ls.deliveryFailureRate = r;
  }
  return json(controlView(ctx));
}

/** Most events one `seed` may add (the sandbox holds them all in memory: about 200 bytes each). */
export const MAX_SEED_EVENTS = 2_000_000;

/**
 * `POST /_sandbox/listening/seed {"events": n, "subscription_id": id}`: appends n events of the
 * subscription at once, without moving time (a backlog of a million takes a second, where
 * `advance` would generate it creator by creator). They are the subscription's creators' in turn,
 * created a second apart up to now, each occurring 5 s to 3 min before it was created (so, as with
 * generated events, occurrence order differs a little from id order). Ids go on from the last one.
 */
export function controlSeed(ctx: RouteContext): Reply {
  const b = controlBody(ctx);
  const n = b.events;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SEED_EVENTS) {
    throw new ApiError(
      fieldErrors(400, { events: [`Expected a whole number of events from 1 to ${MAX_SEED_EVENTS}.`] }),
    );
  }
  const now = syncListening(ctx.state);
  const ls = listening(ctx.state);
  const subscription = ls.subscriptions.get(Number(b.subscription_id));
  if (!subscription)
    throw new ApiError(fieldErrors(400, { subscription_id: ['Expected the id of an existing subscription.'] }));
  const creators = [...subscription.creators.values()].map((c) => ({
    platform: c.platform,
    platform_id: c.platform_id,
  }));
  const types = subscription.event_types;
  const rng = streamFor(ctx.state.seed, `seed:${ls.events.length}`);
  // Shared by every seeded event of a kind: the events differ in id, creator and time.
  const values: Record<string, Record<string, unknown>> = {
    new_post: {
      post_id: 'seeded',
      url: 'https://instagram.example/seeded/p/1',
      caption: 'Seeded backlog',
      media_type: 'image',
    },
    bio_change: { field: 'bio', new_value: 'Seeded backlog' },
    follower_threshold: { threshold: 10_000, followers: 10_042 },
  };
  for (let i = 0; i < n; i++) {
    const createdMs = now - (n - 1 - i) * 1_000;
    const occurredMs = createdMs - intBetween(rng, 5_000, 180_000);
    const type = types[i % types.length] ?? 'new_post';
    ls.events.push({
      id: ls.events.length + 1,
      event_type: type,
      event_value: values[type] ?? null,
      creator: creators[i % creators.length] ?? { platform: 'instagram', platform_id: 'seeded' },
      date_occurance: new Date(occurredMs).toISOString(),
      created_at: new Date(createdMs).toISOString(),
      createdMs,
      subscription_id: subscription.id,
    });
  }
  return json(controlView(ctx));
}
