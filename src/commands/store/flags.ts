import { age, type FlagDefs } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';
import type { Age } from '../../lib/options.js';
import { checkPlatform } from '../../lib/platforms.js';
import { SOCIAL_PLATFORMS } from '../../contract/platforms.js';
import type { AnswerKind, ListFilter } from '../../lib/store/types.js';

/** What `store list` and `store export` can be narrowed to. */
export const ANSWER_FILTER_FLAGS = {
  platform: { flags: '--platform <p>', description: 'only answers about this platform', complete: SOCIAL_PLATFORMS },
  kind: {
    flags: '--kind <kind>',
    description: 'creator (enrichment, socials, overlap) or page (Discovery, posts, comments)',
    choices: ['creator', 'page'],
  },
  olderThan: {
    flags: '--older-than <duration>',
    description: 'only answers bought longer ago than this (90d, 12h)',
    value: age,
  },
  newerThan: { flags: '--newer-than <duration>', description: 'only answers bought within this (7d, 24h)', value: age },
} as const satisfies FlagDefs;

interface AnswerFilterFlags {
  platform?: string | undefined;
  kind?: string | undefined;
  olderThan?: Age | undefined;
  newerThan?: Age | undefined;
}

/** The store's filter for `--platform`, `--kind`, `--older-than`, `--newer-than` (ages back from `now`). */
export function answerFilter(f: AnswerFilterFlags, now: number): ListFilter {
  const filter: ListFilter = {};
  if (f.platform !== undefined) filter.platform = checkPlatform(f.platform, SOCIAL_PLATFORMS);
  if (f.kind !== undefined) filter.kind = f.kind as AnswerKind;
  if (f.olderThan !== undefined) filter.until = now - f.olderThan.ms;
  if (f.newerThan !== undefined) filter.since = now - f.newerThan.ms;
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) {
    throw new UsageError(
      `--newer-than ${f.newerThan?.text} and --older-than ${f.olderThan?.text} leave no time between them.`,
      {
        hint: '--newer-than must be the longer of the two: --newer-than 30d --older-than 7d is what was bought 7 to 30 days ago.',
      },
    );
  }
  return filter;
}
