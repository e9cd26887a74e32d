import type { Context } from '../../../app/context.js';
import { getOne, listeningPath } from '../../../lib/api/listening.js';
import { idArg, printWithRows } from '../shared.js';

/** `creators listening campaigns overview <id>`: totals, per-post metrics, 7-day trends, report. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const path = listeningPath('campaign', idArg(args, 'campaign'), 'overview');
  const http = await ctx.http();
  await printWithRows(ctx, await getOne(http, path), 'posts', [
    { path: 'posted_at', header: 'Posted', kind: 'date' },
    { path: 'creator.platform_id', header: 'Creator' },
    { path: 'views', header: 'Views', kind: 'count' },
    { path: 'likes', header: 'Likes', kind: 'count' },
    { path: 'engagement_rate', header: 'ER', kind: 'percent' },
    { path: 'estimated_reach', header: 'Reach', kind: 'count' },
    { path: 'emv', header: 'EMV', kind: 'number' },
  ]);
}
