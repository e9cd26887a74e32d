/**
 * The checks every authenticated request passes, in Django REST framework's order:
 * authentication (401), permission (403 trial allowance), throttling (429). Each returns a
 * Reply to send instead of the route's, or the value the next step needs.
 */
import { detail, type Reply } from './respond.js';
import type { ApiKeyRecord, SandboxState } from './state.js';

const WINDOW_MS = 60_000;

/** DRF sends this challenge header with its 401s. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };

export type AuthOutcome = { ok: true; credential: ApiKeyRecord } | { ok: false; reply: Reply };

function unauthorized(message: string): AuthOutcome {
  return { ok: false, reply: { status: 401, body: { detail: message }, headers: CHALLENGE } };
}

/** Checks `Authorization: Bearer <key>` against the credentials the state knows. */
export function authenticate(state: SandboxState, header: string | undefined): AuthOutcome {
  const parts = (header ?? '').trim().split(/\s+/).filter(Boolean);
  // Like DRF, another scheme (Basic, Token...) counts as "no credentials", not a bad one.
  if (parts.length === 0 || parts[0]?.toLowerCase() !== 'bearer') {
    return unauthorized('Authentication credentials were not provided.');
  }
  if (parts.length === 1) return unauthorized('Invalid token header. No credentials provided.');
  if (parts.length > 2) return unauthorized('Invalid token header. Token string should not contain spaces.');
  const record = state.apiKeys.get(parts[1] as string);
  if (!record || !record.active) return unauthorized('Invalid token.');
  if (record.expires_at !== null && Date.parse(record.expires_at) <= state.now()) {
    return unauthorized('Invalid token.');
  }
  return { ok: true, credential: record };
}

/**
 * Trial accounts may make `trialAllowance` successful requests; after that every request is
 * refused. The real behaviour after the allowance is not published: 403 is the sandbox's choice.
 */
export function checkTrial(state: SandboxState): Reply | undefined {
  if (!state.config.trial || state.trial.used < state.config.trialAllowance) return undefined;
  return {
    status: 403,
    body: {
      detail: `Trial allowance of ${state.config.trialAllowance} requests used up. Upgrade to a Pro plan to continue.`,
      error_code: 'trial_exhausted',
    },
  };
}

/** Counts a request against the trial allowance; only successful (2xx) replies count. */
export function recordTrialUse(state: SandboxState, status: number): void {
  if (status >= 200 && status < 300) state.trial.used += 1;
}

/**
 * Sliding 60-second window of `config.rateLimit` requests per account. A request that passes
 * is recorded; a throttled one is not (like DRF, 429s do not extend the wait). The limit is
 * read on every call, so changing `state.config.rateLimit` takes effect at once.
 */
export function throttle(state: SandboxState, account: string): Reply | undefined {
  const now = state.now();
  let hits = state.throttle.get(account);
  if (!hits) {
    hits = [];
    state.throttle.set(account, hits);
  }
  while (hits.length > 0 && (hits[0] as number) <= now - WINDOW_MS) hits.shift();
  const limit = Math.max(0, Math.floor(state.config.rateLimit));
  if (hits.length < limit) {
    hits.push(now);
    return undefined;
  }
  // Free again when enough of the oldest hits leave the window to get below the limit.
  const freeing = hits[hits.length - limit] ?? hits[hits.length - 1] ?? now;
  const wait = Math.max(1, Math.ceil((freeing + WINDOW_MS - now) / 1000));
  return throttled(wait);
}

/** DRF's Throttled message (singular/plural as DRF words it) plus `retry_after` and the header. */
export function throttled(wait: number, extra: Record<string, unknown> = {}): Reply {
  const unit = wait === 1 ? 'second' : 'seconds';
  const reply = detail(429, `Request was throttled. Expected available in ${wait} ${unit}.`, {
    retry_after: wait,
    ...extra,
  });
  reply.headers = { 'Retry-After': wait };
  return reply;
}
