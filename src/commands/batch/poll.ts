import type { Context } from '../../app/context.js';
import { pathSegment } from '../../lib/http/url.js';
import { checkFinal } from '../../lib/batch/poll.js';
import { printItem } from '../../lib/output/index.js';
import { intervalMs, printable, waitForBatch, waitTimeoutMs } from './shared.js';
import { STATUS_COLUMNS } from './status.js';

/**
 * `creators batch poll <id>`: waits for a final state, then prints the status record. Exit 0 finished,
 * 7 failed, 5 paused for credits, 8 at --timeout, 130 on Ctrl-C (the job keeps running).
 */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [raw = ''] = args;
  const id = pathSegment(raw, 'batch id');
  const interval = intervalMs(opts);
  const timeoutMs = waitTimeoutMs(ctx);
  const http = await ctx.http();
  const final = await waitForBatch(ctx, http, id, { intervalMs: interval, timeoutMs, check: false });
  await printItem(ctx.io, await ctx.output(), printable(final), STATUS_COLUMNS);
  checkFinal(final);
}
