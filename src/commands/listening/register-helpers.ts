/** Option sets several listening verbs share (registration only: no heavy imports). */
import type { Command } from 'commander';

/** `--body <file|->` and repeatable `--set key=value` for bodies the spec does not name. */
export function withBody(cmd: Command): Command {
  return cmd
    .option('--set <key=value>', 'a body field (repeatable; dot paths nest; values typed like --filter)', collect)
    .option('--body <file|->', 'the whole JSON body from a file or stdin (flags and --set override its keys)');
}

/** Creators as arguments or a file, on one platform unless written `platform:handle`. */
export function withCreators(cmd: Command): Command {
  return cmd
    .option('--platform <p>', 'platform of the handles: instagram, youtube, tiktok, twitch, twitter, onlyfans')
    .option('--file <file|->', 'more handles, one per line');
}

/** The event filters of `events list` and `events tail`. */
export function withEventFilters(cmd: Command): Command {
  return cmd
    .option('--subscription <id>', 'only events of this subscription')
    .option('--type <t>', 'only this event type, e.g. new_post, bio_change, follower_threshold')
    .option('--creator <handle>', 'only events of this creator handle (exact match)');
}

/** Commander collector for repeatable options (`--set a=1 --set b=2`). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
