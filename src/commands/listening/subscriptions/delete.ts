import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';
import { ports } from '../../../app/ports.js';

/** `creators listening subscriptions delete <id>`: confirms unless --yes. */
export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete a subscription (asks first unless --yes)',
  args: [{ name: '<id>', description: 'subscription id' }],
  examples: [
    ['creators listening subscriptions delete 3', 'asks for confirmation'],
    ['creators listening subscriptions delete 2 --yes', 'in scripts'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ deleteListening }, { printItem }, { SUBSCRIPTION_COLUMNS }] = await Promise.all([
      import('../../../lib/listening/workflows.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const result = await deleteListening(await ports.listening(ctx), 'subscription', id, 'Delete');
    if (result) await printItem(ctx.term, output, result, SUBSCRIPTION_COLUMNS);
  },
});
