/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../api/listening.js';
import { UsageError } from '../errors.js';
import { matchChoice } from '../options.js';
import { closest } from '../output/fields-check.js';
import { EVENT_TYPES } from '../../contract/events.js';

export interface EventFilterFlags {
  subscription: string | undefined;
  type: string | undefined;
  creator: string | undefined;
  uncheckedFilters?: boolean | undefined;
}

/** The service answers 422 for an unknown type: refused here with the nearest one, unless `--unchecked-filters`. */
export function eventFilters(flags: EventFilterFlags, warn: (message: string) => void = () => {}): EventFilters {
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
    subscription_id: flags.subscription,
    event_type: type,
    creator: text('--creator', flags.creator),
  };
}
