/**
 * Social listening state (sandbox-only shapes; the real bodies are not published): subscriptions
 * and campaigns that watch creators, the events they produce and the monitoring bill. Kept in a
 * state slot; every listening route first calls `syncListening` (generator.ts) so the world has
 * caught up with the sandbox clock.
 */
import { slot, type SandboxState } from '../state.js';
import { EVENT_TYPES, type EventType } from '../../contract/events.js';

export { EVENT_TYPES, type EventType };

export const DAY_MS = 86_400_000;

export interface WatchedCreator {
  platform: string;
  platform_id: string;
  added_at: string;
  addedMs: number;
}

interface Watcher {
  id: number;
  name: string;
  status: string;
  paused_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Fields the caller sent that the sandbox does not interpret: stored and returned as given. */
  extra: Record<string, unknown>;
  creators: Map<string, WatchedCreator>;
}

export interface Subscription extends Watcher {
  status: 'active' | 'paused';
  event_types: EventType[];
  webhook_url: string | null;
}

export interface Campaign extends Watcher {
  status: 'active' | 'paused' | 'archived';
  days: number | null;
  start_date: string;
  endMs: number | null;
  /** Posts of the campaign's creators caught while it ran (its content feed). */
  posts: CampaignPost[];
}

export interface CampaignPost {
  post_id: string;
  creator: { platform: string; platform_id: string };
  posted_at: string;
  url: string;
  caption: string;
}

export interface ListeningEvent {
  id: number;
  event_type: EventType;
  event_value: Record<string, unknown> | null;
  creator: { platform: string; platform_id: string };
  date_occurance: string;
  created_at: string;
  createdMs: number;
  subscription_id: number;
}

export interface ListeningState {
  /** Added to the sandbox clock by `POST /_sandbox/listening/advance`. */
  offsetMs: number;
  /** Events and posts have been generated for everything visible up to this time. */
  watermarkMs: number | undefined;
  events: ListeningEvent[];
  subscriptions: Map<number, Subscription>;
  campaigns: Map<number, Campaign>;
  /** The monitoring day billed last and the creators already paid for on it. */
  billing: { day: string | undefined; creators: Set<string> };
  /** Order of `GET events/`: newest first (default) or oldest first. */
  order: 'desc' | 'asc';
  /** Chance that one webhook delivery attempt fails. */
  deliveryFailureRate: number;
}

export function listening(state: SandboxState): ListeningState {
  return slot<ListeningState>(state, 'listening', () => ({
    offsetMs: 0,
    watermarkMs: undefined,
    events: [],
    subscriptions: new Map(),
    campaigns: new Map(),
    billing: { day: undefined, creators: new Set() },
    order: 'desc',
    deliveryFailureRate: 0.15,
  }));
}

/** The listening clock: the sandbox clock plus any advance made through the control route. */
export function listeningNow(state: SandboxState): number {
  return state.now() + listening(state).offsetMs;
}

export function creatorKey(platform: string, handle: string): string {
  return `${platform}:${handle}`;
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A campaign still monitoring at `ms`: active and not past its end. */
export function campaignRunning(c: Campaign, ms: number): boolean {
  return c.status === 'active' && (c.endMs === null || ms < c.endMs);
}

/**
 * Every creator monitored right now, once however many subscriptions or campaigns watch it, with
 * the earliest time any of them started watching (the bill counts distinct creators).
 */
export function monitoredCreators(ls: ListeningState, ms: number): Map<string, number> {
  const out = new Map<string, number>();
  const add = (creators: Map<string, WatchedCreator>): void => {
    for (const [key, c] of creators) out.set(key, Math.min(out.get(key) ?? Infinity, c.addedMs));
  };
  for (const s of ls.subscriptions.values()) if (s.status === 'active') add(s.creators);
  for (const c of ls.campaigns.values()) if (campaignRunning(c, ms)) add(c.creators);
  return out;
}

/** The public view of a subscription. */
export function subscriptionView(s: Subscription): Record<string, unknown> {
  return {
    ...s.extra,
    id: s.id,
    name: s.name,
    status: s.status,
    paused_reason: s.paused_reason,
    event_types: s.event_types,
    webhook_url: s.webhook_url,
    creators_count: s.creators.size,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** The public view of a campaign. */
export function campaignView(c: Campaign): Record<string, unknown> {
  return {
    ...c.extra,
    id: c.id,
    name: c.name,
    status: c.status,
    paused_reason: c.paused_reason,
    days: c.days,
    start_date: c.start_date,
    end_date: c.endMs === null ? null : new Date(c.endMs).toISOString().slice(0, 10),
    creators_count: c.creators.size,
    posts_count: c.posts.length,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
