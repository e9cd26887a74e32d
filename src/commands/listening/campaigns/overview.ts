import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening campaigns overview <id>`: totals, per-post metrics, 7-day trends, report (free). */
export default defineCommand({
  name: 'overview',
  description: 'Campaign analytics: per-post metrics, engagement, reach, EMV, 7-day trends, report',
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns overview 2', 'totals and a post table'],
    ['creators listening campaigns overview 2 --json', 'everything'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ getOne, listeningPath }, { printWithRows }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/listening/print.js'),
    ]);
    const http = await ctx.http();
    const record = await getOne(http, listeningPath('campaign', id, 'overview'));
    await printWithRows(ctx.io, await ctx.output(), record, 'posts', [
      { path: 'posted_at', header: 'Posted', kind: 'date' },
      { path: 'creator.platform_id', header: 'Creator', keep: true },
      { path: 'views', header: 'Views', kind: 'count' },
      { path: 'likes', header: 'Likes', kind: 'count' },
      { path: 'engagement_rate', header: 'ER', kind: 'percent' },
      { path: 'estimated_reach', header: 'Reach', kind: 'count' },
      { path: 'emv', header: 'EMV', kind: 'number' },
    ]);
  },
});
