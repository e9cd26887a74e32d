import { defineCommand, httpUrlOrNone } from '../../../app/command.js';
import { LISTENING_PLATFORMS } from '../../../contract/platforms.js';
import { UsageError } from '../../../lib/errors.js';
import { BODY_FLAGS, bodyParts, CREATOR_FLAGS, EVENT_TYPE_LIST } from '../flags.js';
import { ports } from '../../../app/ports.js';

/** `creators listening subscriptions create --name <n> [creator...]`: starts monitoring (billed per creator per day). */
export default defineCommand({
  name: 'create',
  description: 'Create a subscription; its creators are billed 0.3 credits per day each',
  args: [{ name: '[creators...]', description: 'handles to watch (or platform:handle)' }],
  flags: {
    name: { flags: '--name <name>', description: 'subscription name' },
    type: {
      flags: '--type <types>',
      description: 'event types, comma-separated (default: all)',
      value: EVENT_TYPE_LIST,
    },
    webhookUrl: { flags: '--webhook-url <url>', description: 'where the service pushes events', value: httpUrlOrNone },
    ...CREATOR_FLAGS,
    ...BODY_FLAGS,
  },
  examples: [
    [
      'creators listening subscriptions create --name launch --platform instagram carlosrobinson samuelkhan',
      'watch two creators',
    ],
    [
      'creators listening subscriptions create --name bios --type bio_change --file handles.txt --platform tiktok',
      'bio changes only',
    ],
    [
      'creators listening subscriptions create --body sub.json --set webhook_url=https://example.com/hook',
      'body from a file',
    ],
  ],
  async run(ctx, { args, flags }) {
    const [{ creatorRefs }, { buildBody }, { createListening }, { printItem }, { SUBSCRIPTION_COLUMNS }] =
      await Promise.all([
        import('../../../lib/listening/creators.js'),
        import('../../../lib/body.js'),
        import('../../../lib/listening/workflows.js'),
        import('../../../lib/output/index.js'),
        import('../../../lib/listening/columns.js'),
      ]);
    const refs = await creatorRefs(ctx.term, {
      values: args,
      file: flags.file === undefined ? undefined : { path: flags.file, named: '--file' },
      platform: () => ctx.config.optionalPlatform(flags.platform, LISTENING_PLATFORMS),
    });
    const body = await buildBody(ports.body(ctx), bodyParts(flags), {
      name: flags.name,
      event_types: flags.type,
      webhook_url: flags.webhookUrl,
      creators: refs.length > 0 ? refs : undefined,
    });
    if (body.name === undefined)
      throw new UsageError('A subscription needs a name: --name <name> (or name in --body/--set).');
    const output = await ctx.output();
    const created = await createListening(await ports.listening(ctx), 'subscription', body);
    if (created) await printItem(ctx.term, output, created, SUBSCRIPTION_COLUMNS);
  },
});
