import { defineCommand } from '../../../app/command.js';
import { LISTENING_PLATFORMS } from '../../../contract/platforms.js';
import { positiveId } from '../../../lib/ids.js';
import { BODY_FLAGS, CREATOR_FLAGS } from '../flags.js';
import { listeningPorts } from '../ports.js';

/** `creators listening campaigns remove-creators <id> [handle...]`: confirms unless --yes; billed days are not refunded. */
export default defineCommand({
  name: 'remove-creators',
  description: 'Remove creators from a campaign (asks first unless --yes; billed days are not refunded)',
  args: [
    { name: '<id>', description: 'campaign id' },
    { name: '[creators...]', description: 'handles (or platform:handle)' },
  ],
  flags: { ...CREATOR_FLAGS, ...BODY_FLAGS },
  examples: [
    ['creators listening campaigns remove-creators 2 --platform instagram nasa --yes', 'stop following one'],
    ['creators listening campaigns remove-creators 2 --file gone.txt --platform tiktok', 'from a file'],
  ],
  async run(ctx, { args: [rawId, ...handles], flags }) {
    const id = positiveId(rawId ?? '', 'campaign id');
    const [{ creatorRefs }, { buildBody }, { removeCreators }, { printItem }] = await Promise.all([
      import('../../../lib/listening/creators.js'),
      import('../../../lib/body.js'),
      import('../../../lib/listening/workflows.js'),
      import('../../../lib/output/index.js'),
    ]);
    const refs = await creatorRefs(ctx.term, {
      values: handles,
      file: flags.file,
      platform: () => ctx.optionalPlatform(flags.platform, LISTENING_PLATFORMS),
      required: true,
      hasBody: flags.body !== undefined,
    });
    const body = await buildBody(ctx.term, flags, { creators: refs.length > 0 ? refs : undefined });
    const output = await ctx.output();
    const result = await removeCreators(await listeningPorts(ctx), 'campaign', id, body, rawId ?? '');
    if (result) await printItem(ctx.io, output, result);
  },
});
