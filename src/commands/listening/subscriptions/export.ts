import { defineCommand } from '../../../app/command.js';
import { positiveId } from '../../../lib/ids.js';

/**
 * `creators listening subscriptions export <id> [-o file.csv]`: the statistics as the server's CSV,
 * streamed byte for byte to stdout or to an atomic file (no half file if the download breaks).
 */
export default defineCommand({
  name: 'export',
  description: "The statistics as the server's CSV, streamed to stdout or -o (atomic)",
  args: [{ name: '<id>', description: 'subscription id' }],
  examples: [
    ['creators listening subscriptions export 3 -o stats.csv', 'to a file'],
    ['creators listening subscriptions export 3 | head', 'to stdout'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'subscription id');
    const [{ exportDetails }, { printBytes }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    const body = await exportDetails(await ctx.http(), id);
    await printBytes(ctx.term, output, body);
    if (output.outputPath) ctx.term.notice(`Wrote ${output.outputPath}.`);
  },
});
