import { defineCommand } from '../../app/command.js';

/** `creators exclusions remove <list> <handle...> [--file f|-]` (free; DELETE with a body), in chunks of at most 10,000. */
export default defineCommand({
  name: 'remove',
  description: 'Remove handles (arguments, or --file with one per line; sent in chunks of at most 10,000)',
  args: [
    { name: '<list>', description: 'list id or default:<platform>' },
    { name: '[handles...]', description: 'handles, @handles or profile URLs (the API normalises them)' },
  ],
  flags: {
    file: { flags: '--file <file|->', description: 'read handles from a file or stdin, one per line' },
  },
  examples: [
    ['creators exclusions remove 3 nike @adidas https://www.instagram.com/puma/', 'remove three handles'],
    ['cut -d, -f1 contacted.csv | creators exclusions remove default:instagram --file -', 'from stdin'],
  ],
  async run(ctx, { args: [list = '', ...args], flags }) {
    const [{ parseListRef }, { changeListEntries, handlesToChange, readHandleLines }] = await Promise.all([
      import('../../lib/api/exclusions.js'),
      import('../../lib/discovery/exclusions.js'),
    ]);
    const ref = parseListRef(list);
    const fromFile = flags.file === undefined ? [] : await readHandleLines(ctx.term, flags.file, '--file');
    const handles = handlesToChange([...args, ...fromFile], 'remove');
    // The gate comes first: a dry run sends nothing (and so creates no default list).
    await changeListEntries({ http: await ctx.http(), gate: (plan) => ctx.gate(plan), notices: ctx.term, io: ctx.io, output: await ctx.output() }, ref, handles, 'remove');
  },
});
