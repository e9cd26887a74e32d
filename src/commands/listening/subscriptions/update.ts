import { defineCommand, httpUrlOrNone } from '../../../app/command.js';
import { UsageError } from '../../../lib/errors.js';
import { positiveId } from '../../../lib/ids.js';
import { BODY_FLAGS, bodyParts, EVENT_TYPE_LIST, statusChange } from '../flags.js';
import { ports } from '../../../app/ports.js';

/** `creators listening subscriptions update <id>`: PATCH; `--resume` after a top-up, `--pause` to stop. */
export default defineCommand({
  name: 'update',
  description: 'Change a subscription (PATCH); --resume after a top-up',
  args: [{ name: '<id>', description: 'subscription id' }],
  flags: {
    name: { flags: '--name <name>', description: 'new name' },
    type: { flags: '--type <types>', description: 'event types, comma-separated', value: EVENT_TYPE_LIST },
    webhookUrl: { flags: '--webhook-url <url>', description: 'webhook URL, or none', value: httpUrlOrNone },
    pause: { flags: '--pause', description: 'stop monitoring' },
    resume: { flags: '--resume', description: 'resume monitoring (needs credits for today)' },
    ...BODY_FLAGS,
  },
  examples: [
    ['creators listening subscriptions update 3 --name "Launch watch"', 'rename'],
    ['creators listening subscriptions update 3 --resume', 'resume after a pause for credits'],
    ['creators listening subscriptions update 3 --set filters.min_followers=10000', 'any field'],
  ],
  async run(ctx, { args, flags }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ buildBody }, { updateListening }, { printItem }, { SUBSCRIPTION_COLUMNS }] = await Promise.all([
      import('../../../lib/body.js'),
      import('../../../lib/listening/workflows.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const status = statusChange(flags);
    const body = await buildBody(ports.body(ctx), bodyParts(flags), {
      name: flags.name,
      event_types: flags.type,
      webhook_url: flags.webhookUrl,
      status,
    });
    if (Object.keys(body).length === 0) {
      throw new UsageError('Nothing to change.', {
        hint: 'Give --name, --type, --webhook-url, --pause, --resume, --set key=value or --body <file>.',
      });
    }
    const output = await ctx.output();
    const updated = await updateListening(await ports.listening(ctx), 'subscription', id, body);
    if (updated) await printItem(ctx.term, output, updated, SUBSCRIPTION_COLUMNS);
  },
});
