import type { Context } from '../../app/context.js';
import { resumeBatch } from '../../lib/api/batch.js';
import { pathSegment } from '../../lib/http/url.js';
import { printItem } from '../../lib/output/index.js';

/** `creators batch resume <id>`: continues a job paused for credits (or failed). Free. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const [raw = ''] = args;
  const id = pathSegment(raw, 'batch id');
  const http = await ctx.http();
  const answer = await resumeBatch(http, id);
  const record = { batch_id: id, ...answer };
  const output = await ctx.output();
  if (output.format === 'table' && ctx.io.stdoutIsTTY) {
    ctx.io.stdout.write(`Batch ${id} resumed${answer.status ? ` (status ${String(answer.status)})` : ''}.\n`);
    ctx.notice(`Follow it with: creators batch poll ${id}`);
    return;
  }
  await printItem(ctx.io, output, record);
}
