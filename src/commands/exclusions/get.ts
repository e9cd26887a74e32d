import { defineCommand } from '../../app/command.js';

/** `creators exclusions get <list>` (free); `default:<platform>` creates the default list on first access. */
export default defineCommand({
  name: 'get',
  description: 'Show one exclusion list (default:<platform> is created on first access)',
  args: [{ name: '<list>', description: 'list id or default:<platform>' }],
  examples: [
    ['creators exclusions get 3', 'by id'],
    ['creators exclusions get default:instagram --json', 'the default Instagram list'],
  ],
  async run(ctx, { args: [list = ''] }) {
    const [
      { createsDefaultList, getExclusionList, getExclusionListPlan, parseListRef },
      { LIST_COLUMNS },
      { printItem },
    ] = await Promise.all([
      import('../../lib/api/exclusions.js'),
      import('../../lib/discovery/exclusions.js'),
      import('../../lib/output/index.js'),
    ]);
    const ref = parseListRef(list);
    const output = await ctx.output();
    // Reading a default list may create it: that read passes the gate, so --dry-run creates nothing.
    if (createsDefaultList(ref) && !(await ctx.money.gate(getExclusionListPlan(ref)))) return;
    await printItem(ctx.term, output, await getExclusionList(await ctx.http(), ref), LIST_COLUMNS);
  },
});
