import { defineCommand } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/** `creators exclusions rename <list> <name>` (free). Default lists cannot be renamed. */
export default defineCommand({
  name: 'rename',
  description: 'Rename an exclusion list',
  args: [
    { name: '<list>', description: 'list id' },
    { name: '<name>', description: 'new name' },
  ],
  examples: [['creators exclusions rename 3 "Competitors 2026"', 'new name']],
  async run(ctx, { args: [list = '', name = ''] }) {
    const [
      { checkListName, parseListRef, renameExclusionList, renameExclusionListPlan },
      { LIST_COLUMNS },
      { printItem },
    ] = await Promise.all([
      import('../../lib/api/exclusions.js'),
      import('../../lib/discovery/exclusions.js'),
      import('../../lib/output/index.js'),
    ]);
    const ref = parseListRef(list);
    if (ref.kind === 'default') throw new UsageError('The default exclusion list cannot be renamed.');
    const clean = checkListName(name);
    const http = await ctx.http();
    if (!(await ctx.money.gate(renameExclusionListPlan(ref, clean)))) return;
    await printItem(ctx.term, await ctx.output(), await renameExclusionList(http, ref, clean), LIST_COLUMNS);
  },
});
