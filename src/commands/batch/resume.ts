import { defineCommand } from '../../app/command.js';

/**
 * `creators batch resume <id>`: continues a job paused for credits (or failed). The request is free,
 * but the job then goes on charging its rows: it passes the money gate, so `--dry-run` prints the
 * plan and sends nothing.
 */
export default defineCommand({
  name: 'resume',
  description: 'Continue a batch job paused for credits (or failed); resuming is free',
  args: [{ name: '<id>', description: 'batch id (bch_...)' }],
  examples: [
    ['creators batch resume bch_...', 'continue after topping up'],
    ['creators batch resume bch_... && creators batch poll bch_...', 'continue and wait'],
  ],
  async run(ctx, { args }) {
    const [raw = ''] = args;
    const [{ pathSegment }, { resumeBatch, resumeBatchPlan }, { isTerminalTable, printItem, printText }] =
      await Promise.all([
        import('../../lib/http/url.js'),
        import('../../lib/api/batch.js'),
        import('../../lib/output/index.js'),
      ]);
    const id = pathSegment(raw, 'batch id');
    const output = await ctx.output();
    if (!(await ctx.money.gate(resumeBatchPlan(id)))) return;
    const answer = await resumeBatch(await ctx.http(), id);
    if (isTerminalTable(ctx.term, output)) {
      await printText(
        ctx.term,
        output,
        `Batch ${id} resumed${answer.status ? ` (status ${String(answer.status)})` : ''}.\n`,
      );
      ctx.term.notice(`Follow it with: creators batch poll ${id}`);
      return;
    }
    await printItem(ctx.term, output, { batch_id: id, ...answer });
  },
});
