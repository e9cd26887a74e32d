import { defineCommand } from '../../app/command.js';

/** `creators listening usage`: current limits and active subscription counts (free). */
export default defineCommand({
  name: 'usage',
  description: 'Current listening limits, active subscriptions and monitored creators (free)',
  examples: [
    ['creators listening usage', 'as a table'],
    ['creators listening usage --json', 'for scripts'],
  ],
  async run(ctx) {
    const [{ getUsage }, { printItem }] = await Promise.all([import('../../lib/api/listening.js'), import('../../lib/output/index.js')]);
    const output = await ctx.output();
    const http = await ctx.http();
    await printItem(ctx.io, output, await getUsage(http));
  },
});
