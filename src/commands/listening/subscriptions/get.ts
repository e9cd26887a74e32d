import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening subscriptions get <id>`: known fields as a table, every field in json (free). */
export default defineCommand({
  name: 'get',
  description: 'Show one subscription',
  args: [{ name: '<id>', description: 'subscription id' }],
  examples: [
    ['creators listening subscriptions get 3', 'known fields as a table'],
    ['creators listening subscriptions get 3 --json', 'every field'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ getOne, listeningPath }, { printItem }, { SUBSCRIPTION_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    await printItem(ctx.term, output, await getOne(http, listeningPath('subscription', id)), SUBSCRIPTION_COLUMNS);
  },
});
