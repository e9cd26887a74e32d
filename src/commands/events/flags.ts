/** The event filters of `events list` and `events tail` (declarations only). */
import { type FlagDefs, id } from '../../app/command.js';

export const EVENT_FILTER_FLAGS = {
  subscription: { flags: '--subscription <id>', description: 'only events of this subscription', value: id },
  type: { flags: '--type <t>', description: 'only this event type, e.g. new_post, bio_change, follower_threshold' },
  creator: { flags: '--creator <handle>', description: 'only events of this creator handle (exact match)' },
  uncheckedFilters: {
    flags: '--unchecked-filters',
    description: 'send a --type this version does not know (new_post, bio_change, follower_threshold) instead of refusing it (exit 2)',
  },
} as const satisfies FlagDefs;
