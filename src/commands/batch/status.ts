import { defineCommand } from '../../app/command.js';

/** `creators batch status <id>`: the state and progress of a job (free). */
export default defineCommand({
  name: 'status',
  description: 'Show the state and progress of a batch job (free)',
  args: [{ name: '<id>', description: 'batch id (bch_...)' }],
  examples: [
    ['creators batch status bch_...', 'state and progress'],
    ['creators batch status bch_... --json', 'the status record for scripts'],
  ],
  async run(ctx, { args }) {
    const [id = ''] = args;
    const [{ getBatchStatus }, { printable, STATUS_COLUMNS }, { printItem }] = await Promise.all([
      import('../../lib/api/batch.js'),
      import('../../lib/batch/wait.js'),
      import('../../lib/output/index.js'),
    ]);
    const status = await getBatchStatus(await ctx.http(), id);
    // A job that has stopped charging enters the spend log, once whatever reads it.
    await ctx.store.logJob(status);
    await printItem(ctx.term, await ctx.output(), printable(status), STATUS_COLUMNS);
  },
});
