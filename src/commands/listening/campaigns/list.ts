import { defineCommand } from '../../../app/command.js';

/** `creators listening campaigns list`: every campaign, all pages (free). */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List campaigns (every page)',
  examples: [
    ['creators listening campaigns list', 'table'],
    ['creators listening campaigns ls --json', 'JSON array'],
  ],
  async run(ctx) {
    const [{ listAll, listeningPath }, { printList }, { CAMPAIGN_COLUMNS }] = await Promise.all([
      import('../../../lib/api/listening.js'),
      import('../../../lib/output/index.js'),
      import('../../../lib/listening/columns.js'),
    ]);
    const output = await ctx.output();
    const http = await ctx.http();
    const count = await printList(ctx.term, output, listAll(http, listeningPath('campaign')), CAMPAIGN_COLUMNS);
    if (count === 0 && output.format === 'table') ctx.term.notice('No campaigns.');
  },
});
