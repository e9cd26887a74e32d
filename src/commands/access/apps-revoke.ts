import type { Context } from '../../app/context.js';
import { appPath, revokeApp } from '../../lib/api/apps.js';
import { confirm } from '../../lib/io/prompt.js';
import { planFree, positiveId } from './common.js';

/** `creators apps revoke <id>`: disconnects an app (its tokens stop working); confirmed unless `--yes`. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = positiveId(args[0], 'app id');
  if (!(await planFree(ctx, 'DELETE', appPath(id)))) return;
  if (!(await confirm(ctx, `Revoke app ${id}? Its tokens stop working at once.`))) {
    ctx.notice('Nothing revoked.');
    return;
  }
  await revokeApp(await ctx.http(), id);
  ctx.notice(`Revoked app ${id}.`);
}
