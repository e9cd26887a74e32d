import { UsageError } from './errors.js';
import { matchChoice } from './options.js';

export function checkPlatform(value: string, allowed: readonly string[], what = 'platform'): string {
  const p = matchChoice(value, allowed);
  if (p === undefined) {
    throw new UsageError(`Unknown ${what} '${value}'.`, { hint: `Use one of: ${allowed.join(', ')}.` });
  }
  return p;
}
