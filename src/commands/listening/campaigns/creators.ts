import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening campaigns creators <id>`: the creators followed, every page (free). */
export default defineCommand({
  name: 'creators',
  description: "List a campaign's creators",
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns creators 2', 'table'],
    ['creators listening campaigns creators 2 --format csv', 'CSV'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
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
      listAll(http, listeningPath('campaign', id, 'creators')),
      CREATOR_COLUMNS.campaign,
    );
    if (count === 0 && output.format === 'table') ctx.term.notice(`No creators in campaign ${args[0]}.`);
  },
});
