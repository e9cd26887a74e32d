import type { Context } from '../../../app/context.js';
import { listPath, parseListRef, renameExclusionList } from '../../../lib/api/exclusions.js';
import { guardCost } from '../../../app/legacy.js';
import { UsageError } from '../../../lib/errors.js';
import { buildUrl } from '../../../lib/http/url.js';
import { printItem } from '../../../lib/output/index.js';
import { LIST_COLUMNS } from './columns.js';

/** `creators exclusions rename <list> <name>` (free). Default lists cannot be renamed. */
export async function run(ctx: Context, [list = '', name = '']: string[]): Promise<void> {
  const ref = parseListRef(list);
  if (ref.kind === 'default') throw new UsageError('The default exclusion list cannot be renamed.');
  const clean = name.trim();
  if (!clean || clean.length > 300) throw new UsageError('The list name must be 1 to 300 characters.');
  const http = await ctx.http();
  if (!(await guardCost(ctx, { method: 'PATCH', url: buildUrl(http.baseUrl, listPath(ref)).href, body: { name: clean }, worstCaseMilli: 0 }))) return;
  await printItem(ctx.io, await ctx.output(), await renameExclusionList(http, ref, clean), LIST_COLUMNS);
}
