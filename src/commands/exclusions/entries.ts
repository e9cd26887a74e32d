import { defineCommand, integer } from '../../app/command.js';
import { EXCLUSION_ENTRIES_PAGE } from '../../contract/limits.js';
import { UsageError } from '../../lib/errors.js';

/** `creators exclusions entries <list> [--limit n] [--offset n] [--all]` (free), one `{handle}` record each. */
export default defineCommand({
  name: 'entries',
  description: 'List the handles of an exclusion list, alphabetically',
  args: [{ name: '<list>', description: 'list id or default:<platform>' }],
  flags: {
    limit: {
      flags: '--limit <n>',
      description: 'handles per page, 1 to 2000 (default 1000)',
      value: integer({
        min: 1,
        check: (n, _raw, flag) =>
          n > EXCLUSION_ENTRIES_PAGE.max
            ? new UsageError(`Invalid ${flag} ${n}: at most ${EXCLUSION_ENTRIES_PAGE.max} handles per page.`)
            : undefined,
      }),
    },
    offset: { flags: '--offset <n>', description: 'skip this many handles', value: integer({ min: 0 }) },
    all: { flags: '--all', description: 'every page' },
  },
  examples: [
    ['creators exclusions entries 3', 'the first 1000 handles'],
    ['creators exclusions entries default:instagram --all --format csv -o handles.csv', 'all of them, to a file'],
  ],
  async run(ctx, { args: [list = ''], flags }) {
    const [
      { allEntries, createsDefaultList, listEntries, listEntriesPlan, parseListRef },
      { countText, keyed, plural, printList },
      { pagesInFlightFor },
      { endingProgress, pagingProgress, recordsToTerminal },
    ] = await Promise.all([
      import('../../lib/api/exclusions.js'),
      import('../../lib/output/index.js'),
      import('../../lib/bulk/concurrency.js'),
      import('../../lib/bulk/progress.js'),
    ]);
    const ref = parseListRef(list);
    const limit = flags.limit ?? EXCLUSION_ENTRIES_PAGE.default;
    const offset = flags.offset ?? 0;
    const http = await ctx.http();
    const output = await ctx.output();
    // Reading a default list may create it: the first read passes the gate, so --dry-run creates nothing.
    if (createsDefaultList(ref) && !(await ctx.money.gate(listEntriesPlan(ref, { offset, limit })))) return;
    let handles: AsyncIterable<string> | string[];
    let total: number | undefined;
    if (flags.all) {
      // Pages, handles so far and of how many, on a terminal (free: no credits).
      const progress = pagingProgress(ctx.term, {
        label: 'exclusions entries',
        noun: ['handle', 'handles'],
        now: ctx.deps.now,
        recordsToTerminal: recordsToTerminal(ctx.term, output),
      });
      const seen = { pages: 0, records: 0 };
      const onPage = (page: { handles: string[]; total?: unknown }): void => {
        seen.pages++;
        seen.records += page.handles.length;
        progress.update({
          ...seen,
          totalRecords: typeof page.total === 'number' ? Math.max(0, page.total - offset) : undefined,
        });
      };
      // Slow pages: the offsets left (from the total) go out several at once, in order.
      handles = endingProgress(
        allEntries(http, ref, limit, offset, () => pagesInFlightFor(http.load()), onPage),
        progress,
      );
    } else {
      const page = await listEntries(http, ref, { offset, limit });
      handles = page.handles;
      total = typeof page.total === 'number' ? page.total : undefined;
    }
    const count = await printList(ctx.term, output, keyed('handle', handles), [
      { path: 'handle', header: 'handle', keep: true },
    ]);
    if (count === 0 && output.format === 'table') ctx.term.notice('No handles.');
    if (total !== undefined && offset + count < total)
      ctx.term.notice(`Showing ${countText(count)} of ${plural(total, 'handle')}; add --all for every page.`);
  },
});
