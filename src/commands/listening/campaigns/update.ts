import { defineCommand } from '../../../app/command.js';
import { UsageError } from '../../../lib/errors.js';
import { positiveId } from '../../../lib/ids.js';
import { BODY_FLAGS, bodyParts, CAMPAIGN_DAYS, statusChange } from '../flags.js';
import { ports } from '../../../app/ports.js';

/**
 * `creators listening campaigns update <id>`: PATCH. With `--days` (extending the campaign) or
 * `--resume`, the monitoring estimate (its creators x days x 0.3) is shown and checked first.
 */
export default defineCommand({
  name: 'update',
  description: 'Change or extend a campaign (PATCH); --days shows the estimate first',
  args: [{ name: '<id>', description: 'campaign id' }],
  flags: {
    name: { flags: '--name <name>', description: 'new name' },
    days: { flags: '--days <n>', description: 'new duration in days (1-365)', value: CAMPAIGN_DAYS },
    pause: { flags: '--pause', description: 'stop monitoring' },
    resume: { flags: '--resume', description: 'resume monitoring (needs credits for today)' },
    ...BODY_FLAGS,
  },
  examples: [
    ['creators listening campaigns update 2 --days 60', 'extend, estimate first'],
    ['creators listening campaigns update 2 --name "Spring 2027"', 'rename'],
  ],
  async run(ctx, { args, flags }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ buildBody }, { updateListening }, { printItem }, { CAMPAIGN_COLUMNS }] = await Promise.all([
      import('../../../lib/body.js'),
      import('../../../lib/listening/workflows.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const status = statusChange(flags);
    const body = await buildBody(ports.body(ctx), bodyParts(flags), { name: flags.name, days: flags.days, status });
    if (Object.keys(body).length === 0) {
      throw new UsageError('Nothing to change.', {
        hint: 'Give --name, --days, --pause, --resume, --set key=value or --body <file>.',
      });
    }
    const output = await ctx.output();
    const updated = await updateListening(await ports.listening(ctx), 'campaign', id, body);
    if (updated) await printItem(ctx.term, output, updated, CAMPAIGN_COLUMNS);
  },
});
