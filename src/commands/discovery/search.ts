import type { Context } from '../../app/context.js';
import { PRICE_MILLI } from '../../lib/cost.js';
import { checkSort } from '../../lib/discovery/sort.js';
import { UsageError } from '../../lib/errors.js';
import { CREATOR_COLUMNS, parseCommon, runDiscovery } from './run-discovery.js';

/** `creators search`: Discovery, 0.01 credit per creator returned (0.03 with --return-filter-values). */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const common = await parseCommon(ctx, opts);
  const sort = checkSort(common.platform, opts.sort as string | undefined, opts.order as string | undefined);
  const query = opts.query === undefined ? undefined : String(opts.query).trim();
  if (query === '') throw new UsageError('--query needs a brief, e.g. --query "vegan food creators in Berlin".');
  const returnFilterValues = Boolean(opts.returnFilterValues);
  const body: Record<string, unknown> = {
    platform: common.platform,
    // The official client sends null, not {}, when there are no filters.
    filters: Object.keys(common.filters).length > 0 ? common.filters : null,
    ...(sort ? { sort } : {}),
    ...(query ? { nlp_search: query } : {}),
    include_lookalikes: common.includeLookalikes,
  };
  const columns = returnFilterValues ? [...CREATOR_COLUMNS, { path: 'matched_filters', header: 'matched filters' }] : CREATOR_COLUMNS;
  await runDiscovery(ctx, {
    kind: 'search',
    platform: common.platform,
    body,
    plan: { ...common.plan, priceMilli: returnFilterValues ? PRICE_MILLI.discoveryPerCreatorWithFilterValues : PRICE_MILLI.discoveryPerCreator },
    returnFilterValues,
    listIds: common.listIds,
    columns,
  });
}
