/** The event filters of `events list` and `events tail` (declarations only). */
import { type FlagDefs, type FlagValues, id, text } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';
import type { EventQuery } from '../../lib/events/filters.js';

export const EVENT_FILTER_FLAGS = {
  subscription: { flags: '--subscription <id>', description: 'only events of this subscription', value: id },
  type: {
    flags: '--type <t>',
    description: 'only this event type, e.g. new_post, bio_change, follower_threshold',
    value: text,
  },
  creator: {
    flags: '--creator <handle>',
    description: 'only events of this creator handle (exact match)',
    value: text,
  },
  uncheckedFilters: {
    flags: '--unchecked-filters',
    description:
      'send a --type this version does not know (new_post, bio_change, follower_threshold) instead of refusing it (exit 2)',
  },
} as const satisfies FlagDefs;

/** The filters as the events workflow takes them. */
export function eventQuery(flags: FlagValues<typeof EVENT_FILTER_FLAGS>): EventQuery {
  return {
    subscription: flags.subscription,
    type: flags.type,
    creator: flags.creator,
  };
}

/** An unknown `--type` is refused (exit 2), naming the nearest, unless `--unchecked-filters` sends it with a warning. */
export function onUnknownType(
  flags: FlagValues<typeof EVENT_FILTER_FLAGS>,
  warn: (line: string) => void,
): (type: string, known: readonly string[], near: string | undefined) => void {
  return (type, known, near) => {
    if (!flags.uncheckedFilters) {
      throw new UsageError(`Unknown event type '${type}'.${near === undefined ? '' : ` Did you mean '${near}'?`}`, {
        hint: `The event types: ${known.join(', ')}. (--unchecked-filters sends a type this version does not know.)`,
      });
    }
    warn(`--unchecked-filters: sending --type '${type}', not one of the known event types (${known.join(', ')}).`);
  };
}
