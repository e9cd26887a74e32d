/** The event filters `events list` and `events tail` share, checked before anything is sent. */
import type { EventFilters } from '../api/listening.js';
import { matchChoice } from '../options.js';
import { closest } from '../output/fields-check.js';
import { EVENT_TYPES } from '../../contract/events.js';

/** Which events are asked for: of one subscription, one type, one creator (each optional, text trimmed). */
export interface EventQuery {
  subscription: string | undefined;
  type: string | undefined;
  creator: string | undefined;
}

/**
 * The service answers 422 for an unknown type: `onUnknownType` hears of one (with the types known and the nearest)
 * and refuses it by throwing, or lets it be sent.
 */
export function eventFilters(
  query: EventQuery,
  onUnknownType: (type: string, known: readonly string[], near: string | undefined) => void,
): EventFilters {
  const type = query.type === undefined ? undefined : (matchChoice(query.type, EVENT_TYPES) ?? query.type);
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type))
    onUnknownType(type, EVENT_TYPES, closest(type, EVENT_TYPES));
  return { subscription_id: query.subscription, event_type: type, creator: query.creator };
}
