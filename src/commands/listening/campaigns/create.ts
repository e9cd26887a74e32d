import { defineCommand } from '../../../app/command.js';
import { LISTENING_PLATFORMS } from '../../../contract/platforms.js';
import { UsageError } from '../../../lib/errors.js';
import { BODY_FLAGS, bodyParts, CAMPAIGN_DAYS, CREATOR_FLAGS } from '../flags.js';
import { ports } from '../../../app/ports.js';

/**
 * `creators listening campaigns create --name <n> [--days n] [creator...]`: shows the monitoring
 * estimate (creators x days x 0.3) first and honours --max-credits before anything is sent.
 */
export default defineCommand({
  name: 'create',
  description: 'Create a campaign; shows the estimate creators x days x 0.3 first and honours --max-credits',
  args: [{ name: '[creators...]', description: 'handles to follow (or platform:handle)' }],
  flags: {
    name: { flags: '--name <name>', description: 'campaign name' },
    days: { flags: '--days <n>', description: 'monitoring duration in days (1-365)', value: CAMPAIGN_DAYS },
    ...CREATOR_FLAGS,
    ...BODY_FLAGS,
  },
  examples: [
    [
      'creators listening campaigns create --name spring --days 30 --platform instagram carlosrobinson samuelkhan',
      '2 x 30 x 0.3 = 18 credits at most',
    ],
    [
      'creators listening campaigns create --name spring --days 30 --file h.txt --platform tiktok --max-credits 50',
      'refuse above 50',
    ],
    [
      'creators listening campaigns create --name spring --days 7 noah_paws --platform instagram --dry-run',
      'show the plan only',
    ],
  ],
  async run(ctx, { args, flags }) {
    const [{ creatorRefs }, { buildBody }, { createListening }, { printItem }, { CAMPAIGN_COLUMNS }] =
      await Promise.all([
        import('../../../lib/listening/creators.js'),
        import('../../../lib/body.js'),
        import('../../../lib/listening/workflows.js'),
        import('../../../lib/output/index.js'),
        import('../../../lib/listening/columns.js'),
      ]);
    const days = flags.days;
    const refs = await creatorRefs(ctx.term, {
      values: args,
      file: flags.file === undefined ? undefined : { path: flags.file, named: '--file' },
      platform: () => ctx.config.optionalPlatform(flags.platform, LISTENING_PLATFORMS),
    });
    const body = await buildBody(ports.body(ctx), bodyParts(flags), {
      name: flags.name,
      days,
      creators: refs.length > 0 ? refs : undefined,
    });
    if (body.name === undefined)
      throw new UsageError('A campaign needs a name: --name <name> (or name in --body/--set).');
    const output = await ctx.output();
    const created = await createListening(await ports.listening(ctx), 'campaign', body);
    if (created) await printItem(ctx.term, output, created, CAMPAIGN_COLUMNS);
  },
});
