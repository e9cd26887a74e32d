/**
 * The flags `search` and `similar` share, read and checked into what a Discovery run needs: the
 * filters object, the pages to fetch and the exclusion-list ids. Nothing is sent here.
 */
import { MAX_PAGE_LIMIT, RESULT_CAP, type PagePlan } from '../api/discovery.js';
import { UsageError } from '../errors.js';
import { readInputJson, type InputPorts } from '../io/input.js';
import type { Notices } from '../io/terminal.js';
import { parseIntegerOption } from '../options.js';
import { csvReadOptions } from '../csv/read.js';
import { readExcludeHandles } from './exclusions.js';
import { buildFilters } from './filters.js';
import { choosePageLimit } from './paging.js';

/**
 * The shared Discovery flags as typed (the command's flag values; `--platform` is resolved before).
 * A switch that was not given may arrive as undefined (commander sets no value), so each is read as
 * `Boolean(...)`.
 */
export interface DiscoveryFlags {
  filter: readonly string[];
  filters?: string | undefined;
  aiSearch?: string | undefined;
  minFollowers?: string | undefined;
  maxFollowers?: string | undefined;
  excludeHandles?: string | undefined;
  /** How `--exclude-handles` is read: `--delimiter`, `--relax-columns`. */
  delimiter?: string | undefined;
  relaxColumns?: boolean | undefined;
  excludeList: readonly string[];
  excludeDefaultList?: boolean | undefined;
  excludeAllLists?: boolean | undefined;
  includeLookalikes?: boolean | undefined;
  limit?: string | undefined;
  page: string;
  all?: boolean | undefined;
  maxResults?: string | undefined;
}

export interface DiscoveryInput {
  platform: string;
  filters: Record<string, unknown>;
  /** The pages to fetch (the price is the command's). */
  paging: Omit<PagePlan, 'priceMilli'>;
  listIds: number[];
  includeLookalikes: boolean;
}

/** What reading the flags needs: `--filters`/`--exclude-handles` files or stdin, and a place for warnings. */
export interface DiscoveryInputPorts {
  input: InputPorts;
  notices: Notices;
}

/** Reads and checks every flag the two Discovery commands share, for `platform` (already checked). */
export async function readDiscoveryFlags(ports: DiscoveryInputPorts, platform: string, flags: DiscoveryFlags): Promise<DiscoveryInput> {
  const maxResults = parseIntegerOption(flags.maxResults, '--max-results', 1);
  const all = Boolean(flags.all) || maxResults !== undefined;
  const page = parseIntegerOption(flags.page, '--page', 1) ?? 1;
  const explicitLimit = parseIntegerOption(flags.limit, '--limit', 1);
  let limit = explicitLimit ?? (all ? MAX_PAGE_LIMIT : 20);
  if (limit > MAX_PAGE_LIMIT) throw new UsageError(`Invalid --limit ${limit}: at most ${MAX_PAGE_LIMIT} creators per page.`, { hint: 'Use --all to get more, page after page.' });
  if (maxResults !== undefined && page === 1) {
    // Every page is paid in full and shares one limit: pick the one whose pages add up to
    // --max-results (120 -> 40 x 3). An explicit --limit is kept, only shrunk to a smaller --max-results.
    if (explicitLimit === undefined) limit = choosePageLimit(maxResults);
    else if (maxResults < limit) limit = maxResults;
  }
  if ((page - 1) * limit >= RESULT_CAP) throw new UsageError(`--page ${page} starts beyond the ${RESULT_CAP}-result cap of a query.`);
  const listIds = flags.excludeList.map((v) => parseIntegerOption(v, '--exclude-list', 1) as number);
  if (flags.filters === '-' && flags.excludeHandles === '-') throw new UsageError('Only one of --filters and --exclude-handles can read standard input.');
  const built = buildFilters({
    platform,
    base: flags.filters === undefined ? undefined : await readInputJson(ports.input, flags.filters, '--filters'),
    pairs: flags.filter,
    aiSearch: flags.aiSearch,
    minFollowers: parseIntegerOption(flags.minFollowers, '--min-followers', 0),
    maxFollowers: parseIntegerOption(flags.maxFollowers, '--max-followers', 0),
    excludeHandles: flags.excludeHandles === undefined ? undefined : await readExcludeHandles(
            { cwd: ports.input.cwd, stdin: ports.input.stdin, stdinIsTTY: ports.input.stdinIsTTY, notice: (m) => ports.notices.notice(m) },
            flags.excludeHandles,
            '--exclude-handles',
            csvReadOptions(flags),
          ),
    excludeLists: listIds,
    excludeDefaultList: Boolean(flags.excludeDefaultList),
    excludeAllLists: Boolean(flags.excludeAllLists),
  });
  for (const w of built.warnings) ports.notices.warn(w);
  return { platform, filters: built.filters, paging: { limit, page, all, maxResults }, listIds, includeLookalikes: Boolean(flags.includeLookalikes) };
}
