/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { positiveId } from '../../../lib/ids.js';

export function eventFilters(opts: Record<string, unknown>): EventFilters {
  // A subscription id, like every id: a positive integer, checked before anything is sent.
  const subscription = opts.subscription === undefined ? undefined : positiveId(String(opts.subscription), '--subscription');
  const text = (flag: string, v: unknown): string | undefined => {
    if (v === undefined) return undefined;
    const t = String(v).trim();
    if (!t) throw new UsageError(`${flag} needs a value.`);
    return t;
  };
  return {
    subscription_id: subscription,
    event_type: text('--type', opts.type),
    creator: text('--creator', opts.creator),
  };
}
