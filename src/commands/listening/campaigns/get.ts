import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening campaigns get <id>` (free). */
export default defineCommand({
  name: 'get',
  description: 'Show one campaign',
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns get 2', 'table'],
    ['creators listening campaigns get 2 --json', 'every field'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ getOne, listeningPath }, { printItem }, { CAMPAIGN_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    await printItem(ctx.term, output, await getOne(http, listeningPath('campaign', id)), CAMPAIGN_COLUMNS);
  },
});
