/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../api/listening.js';
import { UsageError } from '../errors.js';
import { positiveId } from '../ids.js';
import { matchChoice } from '../options.js';
import { closest } from '../output/fields-check.js';
import { EVENT_TYPES } from '../../contract/events.js';

/** The filter flags as the verbs read them. */
export interface EventFilterFlags {
  subscription: string | undefined;
  type: string | undefined;
  creator: string | undefined;
  uncheckedFilters?: boolean | undefined;
}

/**
 * `--subscription` (a positive integer), `--type` (a known event type, src/contract/events.ts) and
 * `--creator` (not blank) as the events query. The service answers 422 for a type it does not know:
 * refused here (exit 2) with the nearest known one, unless `--unchecked-filters` (sent with a warning,
 * for a type the service added since).
 */
export function eventFilters(flags: EventFilterFlags, warn: (message: string) => void = () => {}): EventFilters {
  // A subscription id, like every id: a positive integer, checked before anything is sent.
  const subscription = flags.subscription === undefined ? undefined : positiveId(flags.subscription, '--subscription');
  const text = (flag: string, v: string | undefined): string | undefined => {
    if (v === undefined) return undefined;
    const t = v.trim();
    if (!t) throw new UsageError(`${flag} needs a value.`);
    return t;
  };
  const asked = text('--type', flags.type);
  const type = asked === undefined ? undefined : (matchChoice(asked, EVENT_TYPES) ?? asked);
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
    if (flags.uncheckedFilters) {
      warn(`--unchecked-filters: sending --type '${type}', not one of the known event types (${EVENT_TYPES.join(', ')}).`);
    } else {
      const near = closest(type, EVENT_TYPES);
      throw new UsageError(`Unknown event type '${type}'.${near === undefined ? '' : ` Did you mean '${near}'?`}`, {
        hint: `The event types: ${EVENT_TYPES.join(', ')}. (--unchecked-filters sends a type this version does not know.)`,
      });
    }
  }
  return {
    subscription_id: subscription,
    event_type: type,
    creator: text('--creator', flags.creator),
  };
}
