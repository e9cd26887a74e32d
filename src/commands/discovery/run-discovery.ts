import type { Context } from '../../app/context.js';
import { DISCOVERY_PATHS, postDiscoveryPage, type DiscoveryKind, type DiscoveryPage } from '../../lib/api/discovery.js';
import { formatCredits } from '../../lib/cost.js';
import { guardCost } from '../../app/legacy.js';
import { checkExclusionLists, readExcludeHandles } from '../../lib/discovery/exclusions.js';
import { buildFilters } from '../../lib/discovery/filters.js';
import { choosePageLimit, discoveryRecords, MAX_PAGE_LIMIT, newTally, pageBase, RESULT_CAP, worstCase, type PagePlan, type RunTally } from '../../lib/discovery/paging.js';
import { UsageError } from '../../lib/errors.js';
import { buildUrl } from '../../lib/http/url.js';
import { readJson } from '../../lib/input.js';
import { parseIntegerOption } from '../../lib/options.js';
import { printList, type ColumnSpec } from '../../lib/output/index.js';
import { checkPlatform, DISCOVERY_PLATFORMS } from '../../lib/platforms.js';

/** The table of both Discovery commands: handle, name, followers, engagement (+ per command). */
export const CREATOR_COLUMNS: ColumnSpec[] = [
  { path: 'profile.username', header: 'handle' },
  { path: 'profile.full_name', header: 'name' },
  { path: 'profile.followers', header: 'followers', kind: 'count' },
  { path: 'profile.engagement_percent', header: 'engagement', kind: 'percent' },
];

export interface CommonInput {
  platform: string;
  filters: Record<string, unknown>;
  plan: Omit<PagePlan, 'priceMilli'>;
  listIds: number[];
  includeLookalikes: boolean;
}

/** Reads and checks every flag the two Discovery commands share; nothing is sent here. */
export async function parseCommon(ctx: Context, opts: Record<string, unknown>, allowed: readonly string[] = DISCOVERY_PLATFORMS): Promise<CommonInput> {
  const rawPlatform = (opts.platform as string | undefined) ?? (await ctx.setting('platform'));
  if (!rawPlatform) throw new UsageError('--platform is required.', { hint: `Use one of: ${allowed.join(', ')} (or set a default: creators config set platform instagram).` });
  const platform = checkPlatform(rawPlatform, allowed);
  const maxResults = parseIntegerOption(opts.maxResults, '--max-results', 1);
  const all = Boolean(opts.all) || maxResults !== undefined;
  const page = parseIntegerOption(opts.page, '--page', 1) ?? 1;
  const explicitLimit = parseIntegerOption(opts.limit, '--limit', 1);
  let limit = explicitLimit ?? (all ? MAX_PAGE_LIMIT : 20);
  if (limit > MAX_PAGE_LIMIT) throw new UsageError(`Invalid --limit ${limit}: at most ${MAX_PAGE_LIMIT} creators per page.`, { hint: 'Use --all to get more, page after page.' });
  if (maxResults !== undefined && page === 1) {
    // Every page is paid in full and shares one limit: pick the one whose pages add up to
    // --max-results (120 -> 40 x 3). An explicit --limit is kept, only shrunk to a smaller --max-results.
    if (explicitLimit === undefined) limit = choosePageLimit(maxResults);
    else if (maxResults < limit) limit = maxResults;
  }
  if ((page - 1) * limit >= RESULT_CAP) throw new UsageError(`--page ${page} starts beyond the ${RESULT_CAP}-result cap of a query.`);
  const listIds = ((opts.excludeList as string[] | undefined) ?? []).map((v) => parseIntegerOption(v, '--exclude-list', 1) as number);
  if (opts.filters === '-' && opts.excludeHandles === '-') throw new UsageError('Only one of --filters and --exclude-handles can read standard input.');
  const built = buildFilters({
    platform,
    base: opts.filters === undefined ? undefined : await readJson(ctx, String(opts.filters), '--filters'),
    pairs: (opts.filter as string[] | undefined) ?? [],
    aiSearch: opts.aiSearch as string | undefined,
    minFollowers: parseIntegerOption(opts.minFollowers, '--min-followers', 0),
    maxFollowers: parseIntegerOption(opts.maxFollowers, '--max-followers', 0),
    excludeHandles: opts.excludeHandles === undefined ? undefined : await readExcludeHandles(ctx, String(opts.excludeHandles)),
    excludeLists: listIds,
    excludeDefaultList: Boolean(opts.excludeDefaultList),
    excludeAllLists: Boolean(opts.excludeAllLists),
  });
  for (const w of built.warnings) ctx.warn(w);
  return { platform, filters: built.filters, plan: { limit, page, all, maxResults }, listIds, includeLookalikes: Boolean(opts.includeLookalikes) };
}

export interface DiscoveryRun {
  kind: DiscoveryKind;
  platform: string;
  /** The request body without `paging`. */
  body: Record<string, unknown>;
  plan: PagePlan;
  returnFilterValues?: boolean;
  listIds: readonly number[];
  columns: ColumnSpec[];
}

/**
 * The money-spending part both commands share: worst case through the money gate (`--max-credits`,
 * `--dry-run`), the free exclusion-list check, then page after page streamed to the printer, and a
 * one-line summary of the spend on a terminal (also when a page fails midway).
 */
export async function runDiscovery(ctx: Context, run: DiscoveryRun): Promise<void> {
  const base = await pageBase(ctx);
  const http = await ctx.http();
  const bodyFor = (wirePage: number, limit = run.plan.limit): Record<string, unknown> => ({ ...run.body, paging: { limit, page: wirePage } });
  const url = buildUrl(http.baseUrl, DISCOVERY_PATHS[run.kind], run.returnFilterValues ? { return_filter_values: 'true' } : undefined);
  const cost = worstCase(run.plan);
  // The free list check comes first, in dry runs too, so a dry run fails (exit 2) exactly when the real run would.
  await verifyExclusionLists(ctx, run.platform, run.listIds);
  const send = await guardCost(ctx, { method: 'POST', url: url.href, body: bodyFor(run.plan.page - 1 + base), worstCaseMilli: cost.milli, costBasis: cost.basis });
  if (!send) return;

  const output = await ctx.output();
  const tally = newTally();
  const onPage = (page: DiscoveryPage, index: number): void => {
    if (index === 0 && page.applied_filters !== undefined) ctx.notice(`Applied filters (from --query): ${describeFilters(page.applied_filters)}`);
  };
  const records = discoveryRecords(run.plan, base, (wire, limit) => postDiscoveryPage(http, run.kind, bodyFor(wire, limit), run.returnFilterValues), tally, onPage);
  try {
    const count = await printList(ctx.io, output, records, run.columns);
    if (count === 0 && output.format === 'table') ctx.notice('No creators found.');
    if (tally.stop === 'repeat') {
      ctx.warn('The server sent a page of creators already seen; stopped instead of paying for it again. Check the page base (CREATORS_PAGE_BASE or `creators config set page-base 0|1`).');
    } else if (tally.stop === 'cap') {
      ctx.notice(`Stopped at the ${RESULT_CAP}-result cap of a query.`);
    }
    const extra = run.plan.maxResults === undefined ? 0 : tally.printed - run.plan.maxResults;
    if (extra > 0) {
      ctx.notice(
        // Requests are sized to add up to --max-results; only a server sending more than asked gets here.
        `The server returned ${tally.printed} creators, ${extra} more than --max-results ${run.plan.maxResults}; they were paid for, so they were kept.`,
      );
    }
  } finally {
    summary(ctx, tally);
  }
}

/**
 * The free exclusion-list check (one GET). A dry run without any credential cannot make it, so it
 * says so instead of implying the ids are fine; anything else behaves as in the real run.
 */
async function verifyExclusionLists(ctx: Context, platform: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (ctx.dryRun && (await ctx.credential()) === undefined) {
    ctx.warn(`Exclusion lists not verified (${ids.join(', ')}): no credential to look them up with. Log in or set CREATORS_API_KEY to check them.`);
    return;
  }
  await checkExclusionLists(await ctx.http(), platform, ids);
}

/** `Spent 0.5 credits on 50 creators (1 page); 999.5 credits left.` on a terminal, unless --quiet. */
function summary(ctx: Context, tally: RunTally): void {
  if (!ctx.io.stderrIsTTY || tally.pages === 0) return;
  const left = tally.creditsLeft === undefined ? '' : `; ${String(tally.creditsLeft)} credits left`;
  ctx.notice(`Spent ${formatCredits(tally.spentMilli)} credits on ${tally.returned} creators (${tally.pages} page${tally.pages === 1 ? '' : 's'})${left}.`);
}

/** The filters the server applied, compact; a long exclusion list is shown by its size. */
function describeFilters(applied: unknown): string {
  if (!applied || typeof applied !== 'object' || Array.isArray(applied)) return JSON.stringify(applied);
  const shown = { ...(applied as Record<string, unknown>) };
  if (Array.isArray(shown.exclude_handles)) shown.exclude_handles = `${shown.exclude_handles.length} handles`;
  return JSON.stringify(shown);
}
