import { defineCommand } from '../../../app/command.js';

/** `creators listening subscriptions list`: every subscription, all pages (free). */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List subscriptions (every page)',
  examples: [
    ['creators listening subscriptions list', 'table on a terminal'],
    ['creators listening subs ls --format csv -o subs.csv', 'CSV file'],
  ],
  async run(ctx) {
    const [{ listAll, listeningPath }, { printList }, { SUBSCRIPTION_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    const count = await printList(ctx.term, output, listAll(http, listeningPath('subscription')), SUBSCRIPTION_COLUMNS);
    if (count === 0 && output.format === 'table') ctx.term.notice('No subscriptions.');
  },
});
