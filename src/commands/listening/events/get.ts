import type { Context } from '../../../app/context.js';
import { getEvent } from '../../../lib/api/listening.js';
import { idArg, printWithRows } from '../shared.js';

/** `creators events get <id>`: one event with its full delivery history. Free. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const id = idArg(args, 'event');
  const http = await ctx.http();
  await printWithRows(ctx, await getEvent(http, id), 'delivery_history', [
    { path: 'attempt', header: '#', kind: 'number' },
    { path: 'attempted_at', header: 'Attempted' },
    { path: 'status', header: 'Status' },
    { path: 'response_status', header: 'HTTP', kind: 'number' },
    { path: 'latency_seconds', header: 'Latency s', kind: 'number' },
    { path: 'error', header: 'Error' },
  ]);
}
