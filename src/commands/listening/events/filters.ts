/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { parseIntegerOption } from '../../../lib/options.js';

export function eventFilters(opts: Record<string, unknown>): EventFilters {
  const subscription = parseIntegerOption(opts.subscription, '--subscription', 1);
  const text = (flag: string, v: unknown): string | undefined => {
    if (v === undefined) return undefined;
    const t = String(v).trim();
    if (!t) throw new UsageError(`${flag} needs a value.`);
    return t;
  };
  return {
    subscription_id: subscription === undefined ? undefined : String(subscription),
    event_type: text('--type', opts.type),
    creator: text('--creator', opts.creator),
  };
}
