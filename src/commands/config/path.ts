import { defineCommand } from '../../app/command.js';

/** `creators config path`: where the config file lives (it may not exist yet). */
export default defineCommand({
  name: 'path',
  description: 'Print the path of the config file',
  examples: [['creators config path', 'e.g. ~/.config/creators/config.json']],
  async run(ctx) {
    const { printText } = await import('../../lib/output/index.js');
    await printText(ctx.term, await ctx.output(), `${(await ctx.config.store()).path}\n`);
  },
});
