import { integer, keyValue, type FlagDefs, type FlagValues, type ValueKind } from '../app/command.js';
import { DISCOVERY_PAGE_LIMIT, DISCOVERY_RESULT_CAP } from '../contract/limits.js';
import { DISCOVERY_PLATFORMS } from '../contract/platforms.js';
import { UsageError } from '../lib/errors.js';
import { CSV_INPUT_FLAGS, csvReadOptions } from './csv-flags.js';
import type { DiscoveryRequest } from '../lib/discovery/input.js';
import type { DiscoveryNames } from '../lib/discovery/run.js';

/** `--ai-search`: the brief, trimmed, 3 to 150 characters (as the API takes `filters.ai_search`). */
const AI_SEARCH_TEXT: ValueKind<string> = {
  parse(raw, flag) {
    const text = raw.trim();
    if (text.length < 3 || text.length > 150) throw new UsageError(`${flag} must be 3 to 150 characters.`);
    return text;
  },
};

/** Filter, exclusion and paging flags shared by `search` and `similar` (declared only; nothing heavy). */
export const DISCOVERY_FLAGS = {
  platform: {
    flags: '--platform <p>',
    description: 'instagram, youtube, tiktok, twitch, twitter or onlyfans (default: the `platform` setting)',
    complete: DISCOVERY_PLATFORMS,
  },
  filter: {
    flags: '--filter <key=value>',
    description:
      'a filter; repeatable; dot paths nest (number_of_followers.min=10000); values typed, commas make lists',
    repeat: true,
    value: keyValue,
  },
  filters: { flags: '--filters <file|->', description: 'a JSON object of filters from a file or stdin', stdin: true },
  uncheckedFilters: {
    flags: '--unchecked-filters',
    description:
      "send filter keys the platform's catalogue does not have (creators help filters) instead of refusing them (exit 2)",
  },
  aiSearch: {
    flags: '--ai-search <text>',
    description: 'semantic search text (filters.ai_search, 3-150 characters)',
    value: AI_SEARCH_TEXT,
  },
  minFollowers: {
    flags: '--min-followers <n>',
    description: "minimum followers, sent under the platform's own key",
    value: integer({ min: 0 }),
  },
  maxFollowers: {
    flags: '--max-followers <n>',
    description: "maximum followers, sent under the platform's own key",
    value: integer({ min: 0 }),
  },
  excludeHandles: {
    flags: '--exclude-handles <file|->',
    description: 'handles to leave out: one per line, or the handle column of a CSV (up to 10,000)',
    stdin: true,
  },
  ...CSV_INPUT_FLAGS,
  excludeList: {
    flags: '--exclude-list <id>',
    description: 'leave out the handles of this exclusion list; repeatable (checked first, free)',
    repeat: true,
    value: integer({ min: 1 }),
  },
  excludeDefaultList: {
    flags: '--exclude-default-list',
    description: "leave out the handles of the platform's default exclusion list",
  },
  excludeAllLists: {
    flags: '--exclude-all-lists',
    description: 'leave out the handles of every exclusion list of the platform',
  },
  skipBought: {
    flags: '--skip-bought',
    description:
      'leave out creators already bought on the platform within the creator window (--max-age, default 14 days) through exclude_handles: ' +
      'with --exclude-handles up to 10,000, the most recently bought first (a warning counts the rest); setting skip-bought, --no-skip-bought for one run',
    negatable: true,
  },
  includeLookalikes: { flags: '--include-lookalikes', description: 'include lookalike creators (default false)' },
  limit: {
    flags: '--limit <n>',
    description: 'creators per page, 1 to 50 (default 20; 50 with --all)',
    value: integer({
      min: 1,
      check: (n, _raw, flag) =>
        n > DISCOVERY_PAGE_LIMIT.max
          ? new UsageError(`Invalid ${flag} ${n}: at most ${DISCOVERY_PAGE_LIMIT.max} creators per page.`, {
              hint: 'Use --all to get more, page after page.',
            })
          : undefined,
    }),
  },
  page: {
    flags: '--page <n>',
    description: 'page to fetch (or start from with --all), counting from 1',
    default: '1',
    value: integer({ min: 1 }),
  },
  envelope: {
    flags: '--envelope',
    description:
      "with --json: one object of the page's total, credits_left and applied_filters and its creators (accounts); one page, not --all",
  },
  all: { flags: '--all', description: 'follow pages to the end of the results, streaming them out' },
  maxResults: {
    flags: '--max-results <n>',
    description:
      'stop after exactly this many creators (implies --all); without --limit the page size is picked to add up to n (120 = 40 x 3), ' +
      'otherwise the last creators are fetched in smaller pages so that no more than n are bought',
    value: integer({ min: 1 }),
  },
} as const satisfies FlagDefs;

/** How the Discovery run's notices name the ways to page, bound and see it: these flags. */
export const DISCOVERY_NAMES: DiscoveryNames = {
  limit: '--limit',
  all: '--all',
  page: '--page',
  maxResults: '--max-results',
  envelope: '--envelope',
  json: '--json',
  yes: '--yes',
  query: '--query',
};

/** The shared flags as the Discovery workflow takes them: the pages worked out, stdin read by one of them at most. */
export async function discoveryRequest(flags: FlagValues<typeof DISCOVERY_FLAGS>): Promise<DiscoveryRequest> {
  const { discoveryPaging } = await import('../lib/discovery/input.js');
  const paging = discoveryPaging(flags);
  if ((paging.page - 1) * paging.limit >= DISCOVERY_RESULT_CAP)
    throw new UsageError(`--page ${paging.page} starts beyond the ${DISCOVERY_RESULT_CAP}-result cap of a query.`);
  if (flags.minFollowers !== undefined && flags.maxFollowers !== undefined && flags.minFollowers > flags.maxFollowers) {
    throw new UsageError(`--min-followers ${flags.minFollowers} is above --max-followers ${flags.maxFollowers}.`);
  }
  if (flags.filters === '-' && flags.excludeHandles === '-')
    throw new UsageError('Only one of --filters and --exclude-handles can read standard input.');
  return {
    filtersFile: flags.filters,
    filterPairs: flags.filter,
    acceptUnknownFilters: flags.uncheckedFilters,
    aiSearch: flags.aiSearch,
    minFollowers: flags.minFollowers,
    maxFollowers: flags.maxFollowers,
    excludeHandles:
      flags.excludeHandles === undefined ? undefined : { file: flags.excludeHandles, named: '--exclude-handles' },
    csv: csvReadOptions(flags),
    excludeLists: flags.excludeList,
    excludeDefaultList: flags.excludeDefaultList,
    excludeAllLists: flags.excludeAllLists,
    includeLookalikes: flags.includeLookalikes,
    paging,
  };
}

/** `--envelope` prints one page as one JSON object: not with `--all` (nor `--max-results`), and only as JSON. */
export function checkEnvelope(envelope: boolean, paging: { all: boolean }, output: { format: string }): void {
  if (!envelope) return;
  if (paging.all)
    throw new UsageError(
      '--envelope describes one page; leave out --all and --max-results (use --envelope first to see the total).',
    );
  if (output.format !== 'json') throw new UsageError('--envelope prints JSON: add --json (or --format json).');
}
