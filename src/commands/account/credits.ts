import type { Context } from '../../lib/context.js';
import { getCredits } from '../../lib/api/account.js';
import { guardCost } from '../../lib/cost.js';
import { printItem } from '../../lib/output/index.js';

/** `creators credits`: the balance, free. */
export async function run(ctx: Context): Promise<void> {
  const output = await ctx.output();
  const http = await ctx.http();
  const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/accounts/credits/`;
  if (!(await guardCost(ctx, { method: 'GET', url, worstCaseMilli: 0 }))) return;
  const credits = await getCredits(http);
  await printItem(ctx.io, output, credits, [
    { path: 'credits_available', header: 'Credits available', kind: 'number' },
    { path: 'credits_used', header: 'Credits used', kind: 'number' },
  ]);
}
