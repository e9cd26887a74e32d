/**
 * The event generator. Every watched creator has deterministic activity over sandbox time: time is
 * cut into 2-minute ticks and a PRNG stream per (seed, creator, tick) decides whether something
 * happened in it, what, when, and how long the service took to notice (the event's `created_at`
 * trails its `date_occurance` by 5 s to 3 min, so events are not created in occurrence order).
 * The world is generated lazily: each listening request first catches up to the clock, day by day
 * (each new day is billed, and may pause monitoring, before the next one is generated). Event ids
 * follow creation order, whatever the size of the steps the clock took.
 */
import { intBetween, pick, streamFor } from '../random.js';
import type { SandboxState } from '../state.js';
import { billOrPause } from './billing.js';
import {
  campaignRunning,
  DAY_MS,
  listening,
  listeningNow,
  monitoredCreators,
  type EventType,
  type ListeningState,
} from './model.js';

export const TICK_MS = 120_000;
/** Chance that a watched creator does something notable in one tick. */
const ACTIVITY_CHANCE = 0.2;
const MIN_DELAY_MS = 5_000;
const MAX_DELAY_MS = 180_000;

export interface Activity {
  key: string;
  platform: string;
  handle: string;
  type: EventType;
  occurredMs: number;
  visibleMs: number;
  value: Record<string, unknown>;
}

const THRESHOLDS = [1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000];

/** The activity of one creator in one tick, if any (pure: same seed, creator and tick, same answer). */
export function activityAt(seed: number, key: string, tick: number): Activity | undefined {
  const rng = streamFor(seed, `listening:${key}:${tick}`);
  if (rng() >= ACTIVITY_CHANCE) return undefined;
  const occurredMs = tick * TICK_MS + Math.floor(rng() * TICK_MS);
  const visibleMs = occurredMs + MIN_DELAY_MS + Math.floor(rng() * (MAX_DELAY_MS - MIN_DELAY_MS));
  const roll = rng();
  const type: EventType = roll < 0.6 ? 'new_post' : roll < 0.8 ? 'bio_change' : 'follower_threshold';
  const [platform = '', handle = ''] = key.split(/:(.*)/s);
  let value: Record<string, unknown>;
  if (type === 'new_post') {
    const postId = `${tick.toString(36)}${intBetween(rng, 1000, 9999)}`;
    value = {
      post_id: postId,
      url: `https://${platform}.example/${handle}/p/${postId}`,
      caption: pick(rng, [
        'New drop today',
        'Behind the scenes',
        'Q&A time',
        'Collab with friends',
        'Weekend vlog',
        'Unboxing',
      ]),
      media_type: pick(rng, ['image', 'video', 'carousel', 'reel']),
    };
  } else if (type === 'bio_change') {
    value = {
      field: pick(rng, ['bio', 'link_in_bio']),
      new_value: pick(rng, [
        'Creator | Partnerships via email',
        'New merch out now',
        'Podcast every Tuesday',
        'linktr.ee/' + handle,
      ]),
    };
  } else {
    const threshold = pick(rng, THRESHOLDS);
    value = { threshold, followers: threshold + intBetween(rng, 0, Math.ceil(threshold * 0.02)) };
  }
  return { key, platform, handle, type, occurredMs, visibleMs, value };
}

/** Activities of the creators monitored now that became visible in (fromMs, toMs], in visibility order. */
function activitiesBetween(state: SandboxState, ls: ListeningState, fromMs: number, toMs: number): Activity[] {
  const out: Activity[] = [];
  const firstTick = Math.floor((fromMs - MAX_DELAY_MS) / TICK_MS);
  const lastTick = Math.floor(toMs / TICK_MS);
  for (const [key, since] of monitoredCreators(ls, fromMs)) {
    for (let tick = Math.max(firstTick, Math.floor(since / TICK_MS)); tick <= lastTick; tick++) {
      const a = activityAt(state.seed, key, tick);
      if (a && a.visibleMs > fromMs && a.visibleMs <= toMs && a.occurredMs >= since) out.push(a);
    }
  }
  return out.sort((a, b) => a.visibleMs - b.visibleMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Turns activities into events (one per subscription that wants it) and campaign posts. */
function record(ls: ListeningState, activities: Activity[]): void {
  for (const a of activities) {
    const creator = { platform: a.platform, platform_id: a.handle };
    for (const s of ls.subscriptions.values()) {
      const watched = s.creators.get(a.key);
      if (s.status !== 'active' || !watched || watched.addedMs > a.occurredMs || !s.event_types.includes(a.type))
        continue;
      ls.events.push({
        id: ls.events.length + 1,
        event_type: a.type,
        event_value: a.value,
        creator,
        date_occurance: new Date(a.occurredMs).toISOString(),
        created_at: new Date(a.visibleMs).toISOString(),
        createdMs: a.visibleMs,
        subscription_id: s.id,
      });
    }
    if (a.type !== 'new_post') continue;
    for (const c of ls.campaigns.values()) {
      const watched = c.creators.get(a.key);
      if (!campaignRunning(c, a.occurredMs) || !watched || watched.addedMs > a.occurredMs) continue;
      c.posts.push({
        post_id: String(a.value.post_id),
        creator,
        posted_at: new Date(a.occurredMs).toISOString(),
        url: String(a.value.url),
        caption: String(a.value.caption),
      });
    }
  }
}

/**
 * Catches the listening world up with the clock: generates what became visible since the last
 * call, and bills each new day at its start (pausing everything when it cannot be paid).
 */
export function syncListening(state: SandboxState): number {
  const ls = listening(state);
  const now = listeningNow(state);
  if (ls.watermarkMs === undefined || now <= ls.watermarkMs) {
    ls.watermarkMs ??= now;
    return now;
  }
  let from = ls.watermarkMs;
  while (from < now) {
    const nextDay = (Math.floor(from / DAY_MS) + 1) * DAY_MS;
    const to = Math.min(now, nextDay);
    record(ls, activitiesBetween(state, ls, from, to));
    if (to === nextDay) {
      billOrPause(state, to);
    }
    from = to;
  }
  ls.watermarkMs = now;
  return now;
}
