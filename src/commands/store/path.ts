import { defineCommand } from '../../app/command.js';

/** `creators store path`: where this profile's store is (it may not exist yet). */
export default defineCommand({
  name: 'path',
  description:
    "Print where this profile's store is: its file, or a team store's URL without the password (CREATORS_STORE > the store setting > the config directory)",
  examples: [
    ['creators store path', 'e.g. ~/.config/creators/store/default.db'],
    ['creators --profile staging store path', "another profile's store"],
  ],
  async run(ctx) {
    const { printText } = await import('../../lib/output/index.js');
    await printText(ctx.term, await ctx.output(), `${await ctx.store.location()}\n`);
  },
});
