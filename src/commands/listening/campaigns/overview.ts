import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening campaigns overview <id>`: totals, 7-day trends, top posts, report (free); --json has every post. */
export default defineCommand({
  name: 'overview',
  description: 'Campaign analytics: per-post metrics, engagement, reach, EMV, 7-day trends, report',
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns overview 2', 'totals, 7-day trends as charts, the top posts'],
    ['creators listening campaigns overview 2 --json', 'everything'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ getOne, listeningPath }, { printOverview }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/listening/overview.js'),
    ]);
    const http = await ctx.http();
    const record = await getOne(http, listeningPath('campaign', id, 'overview'));
    // The top posts are ranked by EMV: on a narrow terminal it is the last number to give way.
    await printOverview(
      ctx.term,
      await ctx.output(),
      record,
      String(id),
      [
        { path: 'posted_at', header: 'Posted', kind: 'date', priority: 1 },
        { path: 'creator.platform_id', header: 'Creator', keep: true },
        { path: 'views', header: 'Views', kind: 'count', priority: 2 },
        { path: 'likes', header: 'Likes', kind: 'count' },
        { path: 'engagement_rate', header: 'ER', kind: 'percent', priority: 1 },
        { path: 'estimated_reach', header: 'Reach', kind: 'count' },
        { path: 'emv', header: 'EMV', kind: 'count', priority: 3 },
      ],
      ctx.deps.now(),
    );
  },
});
