/**
 * Discovery's two account limits, shared by search and similar:
 * - the daily Discovery credit limit (`config.dailyDiscoveryLimit` credits per UTC day): a request
 *   whose charge would pass it gets 429 `{error_code: "daily_limit_exceeded", retry_after, detail}`,
 *   `retry_after` being the seconds to the next UTC midnight;
 * - the fair-use cap on unique creators (one username on one platform) per billing period: once
 *   `config.fairUseCap` are reached, both endpoints answer 429 `{error_code: "fair_use_cap_reached"}`
 *   until the period renews (never, in the sandbox, unless the cap is raised).
 * Nothing is charged or counted for a refused request.
 */
import { ApiError } from '../respond.js';
import type { SandboxState } from '../state.js';

const DAY_MS = 86_400_000;

function dayKey(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Throws the right 429 when serving `creatorKeys` at `milli` would pass a limit. */
export function checkDiscoveryLimits(state: SandboxState, creatorKeys: readonly string[], milli: number): void {
  if (creatorKeys.length === 0) return;
  const { uniqueCreators, milliByDay } = state.discovery;
  if (uniqueCreators.size >= state.config.fairUseCap) {
    throw new ApiError({
      status: 429,
      body: {
        error_code: 'fair_use_cap_reached',
        detail: `Discovery fair-use cap reached (${state.config.fairUseCap} unique creators this billing period). Discovery search and similar creators are unavailable until the subscription renews.`,
      },
    });
  }
  const now = state.now();
  const used = milliByDay.get(dayKey(now)) ?? 0;
  const limitMilli = Math.round(state.config.dailyDiscoveryLimit * 1000);
  if (used + milli > limitMilli) {
    const retryAfter = Math.max(1, Math.ceil((Math.floor(now / DAY_MS + 1) * DAY_MS - now) / 1000));
    throw new ApiError({
      status: 429,
      body: {
        error_code: 'daily_limit_exceeded',
        retry_after: retryAfter,
        detail: `Daily Discovery credit limit of ${state.config.dailyDiscoveryLimit} credits reached.`,
      },
      headers: { 'Retry-After': retryAfter },
    });
  }
}

/** Records what a served request used (after it was charged). */
export function recordDiscoveryUse(state: SandboxState, creatorKeys: readonly string[], milli: number): void {
  const key = dayKey(state.now());
  state.discovery.milliByDay.set(key, (state.discovery.milliByDay.get(key) ?? 0) + milli);
  for (const k of creatorKeys) state.discovery.uniqueCreators.add(k);
}
