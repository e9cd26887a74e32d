import { UsageError } from './errors.js';

/** The platform lists live in src/contract/platforms.ts, shared with the sandbox. */
export { DISCOVERY_PLATFORMS, SOCIAL_PLATFORMS } from '../contract/platforms.js';

/** Lower-cases a platform and checks it against the allowed list; a usage error (nothing sent) otherwise. */
export function checkPlatform(value: string, allowed: readonly string[], what = 'platform'): string {
  const p = value.trim().toLowerCase();
  if (!allowed.includes(p)) {
    throw new UsageError(`Unknown ${what} '${value}'.`, { hint: `Use one of: ${allowed.join(', ')}.` });
  }
  return p;
}
