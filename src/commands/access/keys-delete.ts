import type { Context } from '../../app/context.js';
import { deleteKey, keyPath } from '../../lib/api/keys.js';
import { confirm } from '../../lib/io/prompt.js';
import { planFree, positiveId } from './common.js';

/** `creators keys delete <id>`: permanent; confirmed unless `--yes`. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = positiveId(args[0], 'key id');
  if (!(await planFree(ctx, 'DELETE', keyPath(id)))) return;
  if (!(await confirm(ctx, `Delete API key ${id}? Anything using it stops working.`))) {
    ctx.notice('Nothing deleted.');
    return;
  }
  await deleteKey(await ctx.http(), id);
  ctx.notice(`Deleted API key ${id}.`);
}
