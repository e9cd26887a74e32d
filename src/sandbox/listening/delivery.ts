/**
 * Webhook delivery simulation. Nothing is really sent: each event's delivery attempts are derived
 * from the seed and its id, and what the API shows depends on the clock: `pending` before the first
 * attempt, `sending` during one, `retrying` between a failed attempt and the next, then `sent` or,
 * after 5 retries, `failed`. `latency_seconds` and `retries` are strings, as the spec types them.
 */
import { intBetween, streamFor } from '../random.js';
import type { ListeningEvent } from './model.js';

/** Waits before each retry: 30 s, 1, 2, 4, 8 minutes. */
const BACKOFF_MS = [30_000, 60_000, 120_000, 240_000, 480_000];
const FAILURES = [
  { response_status: 500, error: 'HTTP 500 from the webhook receiver' },
  { response_status: 502, error: 'HTTP 502 from the webhook receiver' },
  { response_status: null, error: 'Timed out after 10 s' },
  { response_status: null, error: 'Connection refused' },
];

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status: 'success' | 'failed' | 'in_progress';
  response_status: number | null;
  latency_seconds: string | null;
  error: string | null;
}

export interface Delivery {
  delivery_status: 'pending' | 'sending' | 'sent' | 'failed' | 'retrying';
  latency_seconds: string | null;
  retries: string;
  history: DeliveryAttempt[];
}

/** The delivery of `event` as seen at `nowMs`. */
export function deliveryOf(seed: number, event: ListeningEvent, nowMs: number, failureRate: number): Delivery {
  const rng = streamFor(seed, `delivery:${event.id}`);
  const history: DeliveryAttempt[] = [];
  let at = event.createdMs + intBetween(rng, 500, 3_000);
  for (let attempt = 1; attempt <= BACKOFF_MS.length + 1; attempt++) {
    const latencyMs = intBetween(rng, 40, 2_500);
    const fails = rng() < failureRate;
    const failure = FAILURES[intBetween(rng, 0, FAILURES.length - 1)] ?? FAILURES[0];
    if (at > nowMs) break;
    const latency = (latencyMs / 1000).toFixed(3);
    const base = { attempt, attempted_at: new Date(at).toISOString() };
    if (at + latencyMs > nowMs) {
      history.push({ ...base, status: 'in_progress', response_status: null, latency_seconds: null, error: null });
      return { delivery_status: 'sending', latency_seconds: null, retries: String(attempt - 1), history };
    }
    if (!fails) {
      history.push({ ...base, status: 'success', response_status: 200, latency_seconds: latency, error: null });
      return { delivery_status: 'sent', latency_seconds: latency, retries: String(attempt - 1), history };
    }
    history.push({
      ...base,
      status: 'failed',
      response_status: failure?.response_status ?? null,
      latency_seconds: latency,
      error: failure?.error ?? null,
    });
    at += latencyMs + (BACKOFF_MS[attempt - 1] ?? 0);
  }
  if (history.length === 0) return { delivery_status: 'pending', latency_seconds: null, retries: '0', history };
  const exhausted = history.length === BACKOFF_MS.length + 1;
  return {
    delivery_status: exhausted ? 'failed' : 'retrying',
    latency_seconds: null,
    retries: String(history.length - 1),
    history,
  };
}

/** An event as the list shows it. */
export function eventView(
  seed: number,
  event: ListeningEvent,
  nowMs: number,
  failureRate: number,
): Record<string, unknown> {
  const d = deliveryOf(seed, event, nowMs, failureRate);
  return {
    id: event.id,
    event_type: event.event_type,
    event_value: event.event_value,
    creator: event.creator,
    date_occurance: event.date_occurance,
    created_at: event.created_at,
    delivery_status: d.delivery_status,
    latency_seconds: d.latency_seconds,
    retries: d.retries,
    subscription_id: event.subscription_id,
  };
}
