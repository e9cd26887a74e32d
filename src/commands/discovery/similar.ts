import type { Context } from '../../app/context.js';
import { PRICE_MILLI } from '../../lib/cost.js';
import { UsageError } from '../../lib/errors.js';
import { CREATOR_COLUMNS, parseCommon, runDiscovery } from './run-discovery.js';

const BY = ['url', 'username', 'id'] as const;

/** A URL, a numeric or YouTube channel id, else a username. */
export function detectBy(value: string): (typeof BY)[number] {
  if (/^https?:\/\//i.test(value) || /^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+\/\S/i.test(value)) return 'url';
  if (/^\d+$/.test(value) || /^UC[A-Za-z0-9_-]{22}$/.test(value)) return 'id';
  return 'username';
}

/** `creators similar <url|username|id>`: lookalike creators, 0.01 credit per creator returned. */
export async function run(ctx: Context, [reference = '']: string[], opts: Record<string, unknown>): Promise<void> {
  const value = reference.trim();
  if (!value || value.length > 200) throw new UsageError('Give the reference creator as a URL, username or id (1-200 characters).');
  const by = opts.by === undefined ? detectBy(value) : String(opts.by).toLowerCase();
  if (!(BY as readonly string[]).includes(by)) throw new UsageError(`Invalid --by '${String(opts.by)}'.`, { hint: `Use one of: ${BY.join(', ')}.` });
  const common = await parseCommon(ctx, opts);
  const body: Record<string, unknown> = {
    platform: common.platform,
    filter_key: by,
    filter_value: value,
    // The official client omits filters when there are none.
    ...(Object.keys(common.filters).length > 0 ? { filters: common.filters } : {}),
    // Not a documented Similar field: sent only when asked for.
    ...(common.includeLookalikes ? { include_lookalikes: true } : {}),
  };
  await runDiscovery(ctx, {
    kind: 'similar',
    platform: common.platform,
    body,
    plan: { ...common.plan, priceMilli: PRICE_MILLI.similarPerCreator },
    listIds: common.listIds,
    columns: [...CREATOR_COLUMNS, { path: 'similarity_score', header: 'similarity', kind: 'number' }],
  });
}
