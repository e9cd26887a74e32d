import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening subscriptions creators <id>`: the creators watched, every page (free). */
export default defineCommand({
  name: 'creators',
  description: 'List the creators a subscription watches',
  args: [{ name: '<id>', description: 'subscription id' }],
  examples: [
    ['creators listening subscriptions creators 3', 'table'],
    ['creators listening subscriptions creators 3 --format csv', 'CSV'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ listAll, listeningPath }, { printList }, { CREATOR_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    const count = await printList(
      ctx.term,
      output,
      listAll(http, listeningPath('subscription', id, 'creators')),
      CREATOR_COLUMNS.subscription,
    );
    if (count === 0 && output.format === 'table') ctx.term.notice(`No creators in subscription ${args[0]}.`);
  },
});
