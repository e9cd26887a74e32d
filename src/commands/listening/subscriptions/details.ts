import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening subscriptions details <id>`: the subscription's statistics (free). */
export default defineCommand({
  name: 'details',
  description: 'Subscription statistics (events and deliveries per creator)',
  args: [{ name: '<id>', description: 'subscription id' }],
  examples: [
    ['creators listening subscriptions details 3', 'summary and per-creator table'],
    ['creators listening subscriptions details 3 --json', 'everything'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ getOne, listeningPath }, { printWithRows }, { SUBSCRIPTION_STATS_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/listening/print.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const http = await ctx.http();
    const record = await getOne(http, listeningPath('subscription', id, 'details'));
    await printWithRows(ctx.term, await ctx.output(), record, 'creators', SUBSCRIPTION_STATS_COLUMNS);
  },
});
