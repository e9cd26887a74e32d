import { defineCommand } from '../../../app/command.js';
import { LISTENING_PLATFORMS } from '../../../contract/platforms.js';
import { positiveId } from '../../../lib/ids.js';
import { BODY_FLAGS, CREATOR_FLAGS } from '../flags.js';
import { listeningPorts } from '../ports.js';

/** `creators listening campaigns add-creators <id> [handle...]`: starts monitoring them, priced for the days the campaign has left. */
export default defineCommand({
  name: 'add-creators',
  description: 'Add creators to a campaign (each billed 0.3 credits per day)',
  args: [
    { name: '<id>', description: 'campaign id' },
    { name: '[creators...]', description: 'handles (or platform:handle)' },
  ],
  flags: { ...CREATOR_FLAGS, ...BODY_FLAGS },
  examples: [
    ['creators listening campaigns add-creators 2 --platform instagram nasa', 'one creator'],
    ['creators listening campaigns add-creators 2 --platform tiktok --file more.txt', 'from a file'],
  ],
  async run(ctx, { args: [rawId, ...handles], flags }) {
    const id = positiveId(rawId ?? '', 'campaign id');
    const [{ creatorRefs }, { buildBody }, { addCreators }, { printItem }] = await Promise.all([
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
    const result = await addCreators(await listeningPorts(ctx), 'campaign', id, body);
    if (result) await printItem(ctx.io, output, result);
  },
});
