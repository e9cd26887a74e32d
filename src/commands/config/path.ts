import type { Context } from '../../app/context.js';

/** `creators config path`. */
export async function run(ctx: Context): Promise<void> {
  ctx.io.stdout.write(`${(await ctx.config()).path}\n`);
}
