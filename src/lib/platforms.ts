import { UsageError } from './errors.js';
import { matchChoice } from './options.js';

/** The platform lists live in src/contract/platforms.ts, shared with the sandbox. */
export { DISCOVERY_PLATFORMS, SOCIAL_PLATFORMS } from '../contract/platforms.js';

/** Checks a platform against the allowed list, in any case (`matchChoice`); a usage error (nothing sent) otherwise. */
export function checkPlatform(value: string, allowed: readonly string[], what = 'platform'): string {
  const p = matchChoice(value, allowed);
  if (p === undefined) {
    throw new UsageError(`Unknown ${what} '${value}'.`, { hint: `Use one of: ${allowed.join(', ')}.` });
  }
  return p;
}
