import type { Context } from '../../app/context.js';
import { getUsage } from '../../lib/api/listening.js';
import { printItem } from '../../lib/output/index.js';

/** `creators listening usage`: current limits and active subscription counts (free). */
export async function run(ctx: Context): Promise<void> {
  const output = await ctx.output();
  const http = await ctx.http();
  await printItem(ctx.io, output, await getUsage(http));
}
