/**
 * What `search` and `similar` share, read into what a Discovery run needs: the filters object, the
 * pages to fetch and the exclusion-list ids. Nothing is sent here.
 */
import type { PagePlan } from '../api/discovery.js';
import type { InputPorts } from '../io/input.js';
import type { Notices } from '../io/terminal.js';
import type { CsvReadOptions } from '../csv/read.js';
import type { KeyValue } from '../options.js';
import { readExcludeHandles } from './exclusions.js';
import { normalizeHandle } from '../../contract/handles.js';
import { buildFilters } from './filters.js';
import { DISCOVERY_PAGE_LIMIT, MAX_EXCLUDE_HANDLES } from '../../contract/limits.js';
import { choosePageLimit } from './paging.js';

/**
 * What a Discovery run is asked for: the filters, the creators to leave out, the pages (the platform resolved before).
 */
export interface DiscoveryRequest {
  /** A JSON object of filters: a file, or `-` for stdin. */
  filtersFile?: string | undefined;
  /** Filters set over it, in order; dot paths nest. */
  filterPairs: readonly KeyValue[];
  /** Send filter keys the platform's catalogue does not have (with a warning) rather than refuse them. */
  acceptUnknownFilters: boolean;
  aiSearch?: string | undefined;
  minFollowers?: number | undefined;
  maxFollowers?: number | undefined;
  /** Handles to leave out: a file, or `-` for stdin, read as `csv` says; `named` is how messages name it. */
  excludeHandles?: { file: string; named: string } | undefined;
  csv: CsvReadOptions;
  /** Exclusion lists whose handles are left out. */
  excludeLists: readonly number[];
  excludeDefaultList: boolean;
  excludeAllLists: boolean;
  includeLookalikes: boolean;
  /** The pages to fetch (`discoveryPaging`). */
  paging: Omit<PagePlan, 'priceMilli'>;
}

/**
 * The pages a run fetches: `limit` creators a page (20, or 50 for every page), from `page`; with
 * `maxResults` from the first page, the page size whose pages add up to it.
 */
export function discoveryPaging(asked: {
  limit?: number | undefined;
  page: number;
  all: boolean;
  maxResults?: number | undefined;
}): Omit<PagePlan, 'priceMilli'> {
  const { page, maxResults } = asked;
  const all = asked.all || maxResults !== undefined;
  let limit = asked.limit ?? (all ? DISCOVERY_PAGE_LIMIT.max : DISCOVERY_PAGE_LIMIT.default);
  if (maxResults !== undefined && page === 1) {
    // Every page is paid in full and shares one limit: pick the one whose pages add up to
    // --max-results (120 -> 40 x 3). An explicit --limit is kept, only shrunk to a smaller --max-results.
    if (asked.limit === undefined) limit = choosePageLimit(maxResults);
    else if (maxResults < limit) limit = maxResults;
  }
  return { limit, page, all, maxResults };
}

export interface DiscoveryInput {
  platform: string;
  filters: Record<string, unknown>;
  /** The pages to fetch (the price is the command's). */
  paging: Omit<PagePlan, 'priceMilli'>;
  listIds: number[];
  includeLookalikes: boolean;
}

/** Creators already bought on a platform (the store's `boughtCreators`), for `--skip-bought`. */
export interface BoughtCreators {
  /** Normalised handles, each once, the most recently bought first. */
  handles: readonly string[];
  /** The creator window they were bought within (`--max-age`, `max-age`, else 14 days). */
  windowMs: number;
}

/** What reading the flags needs: `--filters`/`--exclude-handles` files or stdin, and a place for warnings. */
export interface DiscoveryInputPorts {
  input: InputPorts;
  /** The JSON object of filters a file (or `-`) holds: refused when it is not one. */
  filters(source: string): Promise<Record<string, unknown>>;
  notices: Notices;
  /**
   * Given when creators already bought are to be left out: those bought on the platform within the
   * creator window (undefined when there is no store to ask), and where the outcome is told.
   */
  bought?:
    | {
        creators(platform: string): Promise<BoughtCreators | undefined>;
        told(outcome: SkipBoughtOutcome): Promise<void>;
      }
    | undefined;
}

/** Reads the filters, exclusions and paging of a Discovery run on `platform` (already checked). */
export async function readDiscoveryInput(
  ports: DiscoveryInputPorts,
  platform: string,
  asked: DiscoveryRequest,
): Promise<DiscoveryInput> {
  const built = buildFilters({
    platform,
    base: asked.filtersFile === undefined ? undefined : await ports.filters(asked.filtersFile),
    pairs: asked.filterPairs,
    aiSearch: asked.aiSearch,
    minFollowers: asked.minFollowers,
    maxFollowers: asked.maxFollowers,
    excludeHandles:
      asked.excludeHandles === undefined
        ? undefined
        : await readExcludeHandles(
            {
              cwd: ports.input.cwd,
              stdin: ports.input.stdin,
              stdinIsTTY: ports.input.stdinIsTTY,
              notice: (m) => ports.notices.notice(m),
              warn: (m) => ports.notices.warn(m),
            },
            asked.excludeHandles.file,
            asked.excludeHandles.named,
            asked.csv,
          ),
    excludeLists: [...asked.excludeLists],
    excludeDefaultList: asked.excludeDefaultList,
    excludeAllLists: asked.excludeAllLists,
    unchecked: asked.acceptUnknownFilters,
  });
  for (const w of built.warnings) ports.notices.warn(w);
  if (ports.bought) await ports.bought.told(skipBought(built.filters, platform, await ports.bought.creators(platform)));
  return {
    platform,
    filters: built.filters,
    paging: asked.paging,
    listIds: [...asked.excludeLists],
    includeLookalikes: asked.includeLookalikes,
  };
}

/** What leaving out the creators already bought did (`skipBought`), for the command to say. */
export type SkipBoughtOutcome =
  | { kind: 'no-store' }
  | { kind: 'no-window' }
  | { kind: 'none-bought'; platform: string; windowMs: number }
  /** `leftOut` are left out; `over` more could not be, past the `cap` handles a request takes. */
  | { kind: 'left-out'; platform: string; windowMs: number; leftOut: number; over: number; cap: number };

/**
 * The creators already bought on the platform join `exclude_handles`, after the ones given, up to the
 * API's 10,000. Past that the most recently bought are left out of it (those may be returned, and
 * charged, again): the outcome counts them.
 */
export function skipBought(
  filters: Record<string, unknown>,
  platform: string,
  bought: BoughtCreators | undefined,
): SkipBoughtOutcome {
  if (bought === undefined) return { kind: 'no-store' };
  if (bought.windowMs <= 0) return { kind: 'no-window' };
  const given = Array.isArray(filters.exclude_handles) ? filters.exclude_handles.map(String) : [];
  const excluded = new Set(given.map((h) => normalizeHandle(h)));
  const room = Math.max(0, MAX_EXCLUDE_HANDLES - given.length);
  const added: string[] = [];
  let leftOut = 0;
  let over = 0;
  for (const handle of bought.handles) {
    if (excluded.has(handle)) {
      leftOut++;
      continue;
    }
    excluded.add(handle);
    if (added.length < room) {
      added.push(handle);
      leftOut++;
    } else over++;
  }
  if (added.length > 0) filters.exclude_handles = [...given, ...added];
  if (bought.handles.length === 0) return { kind: 'none-bought', platform, windowMs: bought.windowMs };
  return { kind: 'left-out', platform, windowMs: bought.windowMs, leftOut, over, cap: MAX_EXCLUDE_HANDLES };
}
