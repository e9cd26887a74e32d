import type { Context } from '../../../app/context.js';
import { deleteExclusionList, listPath, parseListRef } from '../../../lib/api/exclusions.js';
import { guardCost } from '../../../app/legacy.js';
import { UsageError } from '../../../lib/errors.js';
import { buildUrl } from '../../../lib/http/url.js';
import { confirm } from '../../../lib/io/prompt.js';

/** `creators exclusions delete <list>`: asks first unless --yes (exit 2 without a terminal). */
export async function run(ctx: Context, [list = '']: string[]): Promise<void> {
  const ref = parseListRef(list);
  if (ref.kind === 'default') throw new UsageError('The default exclusion list cannot be deleted.', { hint: 'Empty it with `creators exclusions remove` instead.' });
  const http = await ctx.http();
  if (!(await guardCost(ctx, { method: 'DELETE', url: buildUrl(http.baseUrl, listPath(ref)).href, worstCaseMilli: 0 }))) return;
  if (!(await confirm(ctx, `Delete exclusion list ${ref.id} and all its handles?`))) {
    ctx.notice('Nothing was deleted.');
    return;
  }
  await deleteExclusionList(http, ref);
  ctx.notice(`Deleted exclusion list ${ref.id}.`);
}
