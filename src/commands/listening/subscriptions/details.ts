import type { Context } from '../../../app/context.js';
import { getOne, listeningPath } from '../../../lib/api/listening.js';
import { idArg, printWithRows } from '../shared.js';

/** `creators listening subscriptions details <id>`: the subscription's statistics. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const path = listeningPath('subscription', idArg(args, 'subscription'), 'details');
  const http = await ctx.http();
  await printWithRows(ctx, await getOne(http, path), 'creators', []);
}
