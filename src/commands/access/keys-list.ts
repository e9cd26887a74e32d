import type { Context } from '../../app/context.js';
import { listKeys } from '../../lib/api/keys.js';
import { printList } from '../../lib/output/index.js';
import { KEY_COLUMNS, maskKey } from './common.js';

/** `creators keys list`: every API key, values masked unless `--show-token`. */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const output = await ctx.output();
  const keys = await listKeys(await ctx.http());
  const shown = keys.map((k) => maskKey(k, Boolean(opts.showToken)));
  const count = await printList(ctx.io, output, shown, KEY_COLUMNS);
  if (count === 0 && output.format === 'table') ctx.notice('No API keys.');
}
