/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../api/listening.js';
import { UsageError } from '../errors.js';
import { matchChoice } from '../options.js';
import { closest } from '../output/fields-check.js';
import { EVENT_TYPES } from '../../contract/events.js';

/** Which events are asked for: of one subscription, one type, one creator (each optional, text trimmed). */
export interface EventQuery {
  subscription: string | undefined;
  type: string | undefined;
  creator: string | undefined;
  /** A type this version does not know is sent (`onUnknownType` told of it), not refused. */
  anyType: boolean;
}

/**
 * The service answers 422 for an unknown type: refused here with the nearest one, unless `anyType`.
 * `onUnknownType` hears of an unknown type sent all the same, with the types known.
 */
export function eventFilters(
  query: EventQuery,
  onUnknownType: (type: string, known: readonly string[]) => void = () => {},
): EventFilters {
  const type = query.type === undefined ? undefined : (matchChoice(query.type, EVENT_TYPES) ?? query.type);
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
    if (query.anyType) {
      onUnknownType(type, EVENT_TYPES);
    } else {
      const near = closest(type, EVENT_TYPES);
      throw new UsageError(`Unknown event type '${type}'.${near === undefined ? '' : ` Did you mean '${near}'?`}`, {
        hint: `The event types: ${EVENT_TYPES.join(', ')}. (--unchecked-filters sends a type this version does not know.)`,
      });
    }
  }
  return { subscription_id: query.subscription, event_type: type, creator: query.creator };
}
