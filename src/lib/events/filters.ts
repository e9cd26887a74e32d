/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../api/listening.js';
import { UsageError } from '../errors.js';
import { positiveId } from '../ids.js';

/** The filter flags as the verbs read them. */
export interface EventFilterFlags {
  subscription: string | undefined;
  type: string | undefined;
  creator: string | undefined;
}

/** `--subscription` (a positive integer), `--type` and `--creator` (not blank) as the events query. */
export function eventFilters(flags: EventFilterFlags): EventFilters {
  // A subscription id, like every id: a positive integer, checked before anything is sent.
  const subscription = flags.subscription === undefined ? undefined : positiveId(flags.subscription, '--subscription');
  const text = (flag: string, v: string | undefined): string | undefined => {
    if (v === undefined) return undefined;
    const t = v.trim();
    if (!t) throw new UsageError(`${flag} needs a value.`);
    return t;
  };
  return {
    subscription_id: subscription,
    event_type: text('--type', flags.type),
    creator: text('--creator', flags.creator),
  };
}
