import type { Context } from '../../../app/context.js';
import { getExclusionList, parseListRef } from '../../../lib/api/exclusions.js';
import { printItem } from '../../../lib/output/index.js';
import { LIST_COLUMNS } from './columns.js';

/** `creators exclusions get <list>` (free); `default:<platform>` creates the default list on first access. */
export async function run(ctx: Context, [list = '']: string[]): Promise<void> {
  const ref = parseListRef(list);
  const output = await ctx.output();
  await printItem(ctx.io, output, await getExclusionList(await ctx.http(), ref), LIST_COLUMNS);
}
