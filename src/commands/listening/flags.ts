/** Flag sets several listening verbs share (declarations only: nothing is loaded). */
import { integer, type FlagDefs } from '../../app/command.js';
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';

/** `--days n`: a campaign's monitoring duration, 1 to 365 days. */
export const CAMPAIGN_DAYS = integer({ min: 1, max: 365 });

/** Creators as arguments or a file, on one platform unless written `platform:handle`. */
export const CREATOR_FLAGS = {
  platform: { flags: '--platform <p>', description: 'platform of the handles: instagram, youtube, tiktok, twitch, twitter, onlyfans', complete: LISTENING_PLATFORMS },
  file: { flags: '--file <file|->', description: 'more handles, one per line', stdin: true },
} as const satisfies FlagDefs;

/** `--set key=value` (repeatable) and `--body <file|->` for bodies the spec does not name. */
export const BODY_FLAGS = {
  set: { flags: '--set <key=value>', description: 'a body field (repeatable; dot paths nest; values typed like --filter)', repeat: true },
  body: { flags: '--body <file|->', description: 'the whole JSON body from a file or stdin (flags and --set override its keys)', stdin: true },
} as const satisfies FlagDefs;
