import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';
import { ports } from '../../../app/ports.js';

/** `creators listening campaigns archive <id>` (DELETE archives): confirms unless --yes. */
export default defineCommand({
  name: 'archive',
  description: 'Archive a campaign (DELETE; asks first unless --yes)',
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns archive 2', 'asks first'],
    ['creators listening campaigns archive 2 --yes', 'in scripts'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ deleteListening }, { printItem }, { CAMPAIGN_COLUMNS }] = await Promise.all([
      import('../../../lib/listening/workflows.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const result = await deleteListening(await ports.listening(ctx), 'campaign', id, 'Archive');
    if (result) await printItem(ctx.term, output, result, CAMPAIGN_COLUMNS);
  },
});
