import type { FlagDefs } from '../../app/command.js';
import { SOCIAL_PLATFORMS } from '../../lib/platforms.js';

/** What `store list` and `store export` can be narrowed to. */
export const ANSWER_FILTER_FLAGS = {
  platform: { flags: '--platform <p>', description: 'only answers about this platform', complete: SOCIAL_PLATFORMS },
  kind: { flags: '--kind <kind>', description: 'creator (enrichment, socials, overlap) or page (Discovery, posts, comments)', choices: ['creator', 'page'] },
  olderThan: { flags: '--older-than <duration>', description: 'only answers bought longer ago than this (90d, 12h)' },
  newerThan: { flags: '--newer-than <duration>', description: 'only answers bought within this (7d, 24h)' },
} as const satisfies FlagDefs;
