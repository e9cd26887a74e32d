/** Flag sets several listening verbs share (declarations only: nothing is loaded). */
import { integer, keyValue, type FlagDefs, type FlagValues, type ValueKind } from '../../app/command.js';
import type { BodyParts } from '../../lib/body.js';
import { EVENT_TYPES } from '../../contract/events.js';
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';
import { UsageError } from '../../lib/errors.js';
import { matchChoice } from '../../lib/options.js';

/** `--days n`: a campaign's monitoring duration, 1 to 365 days. */
export const CAMPAIGN_DAYS = integer({ min: 1, max: 365 });

/** Event types, comma-separated: a known type in any case is sent as spelled; any other name is passed on (the spec's list is not complete). */
export const EVENT_TYPE_LIST: ValueKind<string[]> = {
  parse(raw, flag) {
    const list = raw
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => matchChoice(t, EVENT_TYPES) ?? t);
    if (list.length === 0)
      throw new UsageError(`${flag} needs at least one event type, e.g. ${flag} new_post,bio_change.`);
    return list;
  },
};

/** `--pause` and `--resume` as the status a PATCH sends; undefined when neither is given. */
export function statusChange(flags: { pause: boolean; resume: boolean }): 'paused' | 'active' | undefined {
  if (flags.pause && flags.resume) throw new UsageError('--pause and --resume cannot be used together.');
  return flags.pause ? 'paused' : flags.resume ? 'active' : undefined;
}

/** Creators as arguments or a file, on one platform unless written `platform:handle`. */
export const CREATOR_FLAGS = {
  platform: {
    flags: '--platform <p>',
    description: 'platform of the handles: instagram, youtube, tiktok, twitch, twitter, onlyfans',
    complete: LISTENING_PLATFORMS,
  },
  file: {
    flags: '--file <file|->',
    description: 'more handles: one per line, or the handle column of a CSV',
    stdin: true,
  },
} as const satisfies FlagDefs;

/** `--set key=value` (repeatable) and `--body <file|->` for bodies the spec does not name. */
export const BODY_FLAGS = {
  set: {
    flags: '--set <key=value>',
    description: 'a body field (repeatable; dot paths nest; values typed like --filter)',
    repeat: true,
    value: keyValue,
  },
  body: {
    flags: '--body <file|->',
    description: 'the whole JSON body from a file or stdin (flags and --set override its keys)',
    stdin: true,
  },
} as const satisfies FlagDefs;

/** `--body` and `--set` as a body is built from them. */
export function bodyParts(flags: FlagValues<typeof BODY_FLAGS>): BodyParts {
  return { file: flags.body, pairs: flags.set };
}
