import { defineCommand } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/** `creators exclusions delete <list>`: asks first unless --yes (exit 2 without a terminal). */
export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete an exclusion list (asks first unless --yes)',
  args: [{ name: '<list>', description: 'list id' }],
  examples: [['creators exclusions delete 3 --yes', 'without a prompt']],
  async run(ctx, { args: [list = ''] }) {
    const { deleteExclusionList, deleteExclusionListPlan, parseListRef } = await import('../../lib/api/exclusions.js');
    const ref = parseListRef(list);
    if (ref.kind === 'default')
      throw new UsageError('The default exclusion list cannot be deleted.', {
        hint: 'Empty it with `creators exclusions remove` instead.',
      });
    const http = await ctx.http();
    if (!(await ctx.money.gate(deleteExclusionListPlan(ref)))) return;
    if (!(await ctx.term.confirm(`Delete exclusion list ${ref.id} and all its handles?`))) {
      ctx.term.notice('Nothing was deleted.');
      return;
    }
    await deleteExclusionList(http, ref);
    ctx.term.notice(`Deleted exclusion list ${ref.id}.`);
  },
});
