import { defineCommand } from '../../app/command.js';

/** `creators store stats`: engine, location, size, records by kind, the spend log's totals. Reads only. */
export default defineCommand({
  name: 'stats',
  description:
    'Show which store (engine, where) and what it holds: records by kind, credits paid, oldest and newest, size',
  examples: [
    ['creators store stats', 'as a table'],
    ["creators store stats --json | jq '.answers.creator.count'", 'creator records kept'],
  ],
  async run(ctx) {
    const [{ printItem }, { STATS_COLUMNS, statsRecord }] = await Promise.all([
      import('../../lib/output/index.js'),
      import('../../lib/store/views.js'),
    ]);
    const output = await ctx.output();
    const location = await ctx.store.location();
    const store = await ctx.store.local();
    const engine = location.startsWith('postgres://') ? 'postgres' : 'sqlite';
    await printItem(ctx.term, output, statsRecord(await store?.stats(), location, engine), STATS_COLUMNS);
    if (!store && engine === 'postgres')
      ctx.term.notice(
        `The team store ${location} has no creators schema yet: run \`creators store migrate\` once for the team.`,
      );
    else if (!store)
      ctx.term.notice(`No store yet at ${location}: nothing has been bought with profile '${ctx.profileName}'.`);
  },
});
