import type { Context } from '../../../app/context.js';
import { listExclusionLists } from '../../../lib/api/exclusions.js';
import { printList } from '../../../lib/output/index.js';
import { checkPlatform, DISCOVERY_PLATFORMS } from '../../../lib/platforms.js';
import { LIST_COLUMNS } from './columns.js';

/** `creators exclusions list [--platform p]` (free). The API has no platform filter: it is applied here. */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const platform = opts.platform === undefined ? undefined : checkPlatform(String(opts.platform), DISCOVERY_PLATFORMS);
  const output = await ctx.output();
  const lists = await listExclusionLists(await ctx.http());
  const shown = platform ? lists.filter((l) => String(l.platform).toLowerCase() === platform) : lists;
  const count = await printList(ctx.io, output, shown, LIST_COLUMNS);
  if (count === 0 && output.format === 'table') ctx.notice('No exclusion lists.');
}
