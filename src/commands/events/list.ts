import { defineCommand, integer } from '../../app/command.js';
import { EVENTS_PAGE_SIZE } from '../../contract/limits.js';
import { UsageError } from '../../lib/errors.js';
import { EVENT_FILTER_FLAGS, eventQuery, onUnknownType } from './flags.js';

/** `creators events list`: one page of events (1-based), or every page from it with --all. Free. */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List events, one page (1-based) or --all',
  flags: {
    page: { flags: '--page <n>', description: 'page number, from 1', value: integer({ min: 1 }) },
    pageSize: {
      flags: '--page-size <n>',
      description: "events per page, 1-100 (default: the server's 10; 100 with --all)",
      // The service refuses page_size outside 1-100 (HTTP 400): refused here, so nothing is sent.
      value: integer({
        check: (n, raw, flag) =>
          n < 1 || n > EVENTS_PAGE_SIZE.max
            ? new UsageError(`Invalid ${flag} '${raw}': must be between 1 and ${EVENTS_PAGE_SIZE.max}.`)
            : undefined,
      }),
    },
    all: {
      flags: '--all',
      description: 'follow every page from --page on (100 a page; an event is printed once even if pages shift)',
    },
    ...EVENT_FILTER_FLAGS,
  },
  examples: [
    ['creators events list', 'the first page'],
    ['creators events list --type new_post --subscription 3 --all --format jsonl', 'every new post of a subscription'],
    ['creators events list --creator carlosrobinson --page 2 --page-size 50', 'paging'],
  ],
  async run(ctx, { flags }) {
    const [
      { eventFilters },
      { listEvents },
      { plural, printList },
      { EVENT_COLUMNS },
      { pagesInFlightFor },
      { endingProgress, pagingProgress, recordsToTerminal },
    ] = await Promise.all([
      import('../../lib/events/filters.js'),
      import('../../lib/api/listening.js'),
      import('../../lib/output/index.js'),
      import('../../lib/listening/columns.js'),
      import('../../lib/bulk/concurrency.js'),
      import('../../lib/bulk/progress.js'),
    ]);
    const filters = eventFilters(
      eventQuery(flags),
      onUnknownType(flags, (line) => ctx.term.warn(line)),
    );
    const page = flags.page ?? 1;
    // --all reads every page: the largest pages take the fewest requests (a tenth of the server's default).
    const pageSize = flags.pageSize ?? (flags.all ? EVENTS_PAGE_SIZE.max : undefined);
    const output = await ctx.output();
    const http = await ctx.http();
    let more: { count: number | undefined; next: string | null } | undefined;
    // --all on a terminal: pages and events so far, of the count when the server gives it (free: no credits).
    const progress = pagingProgress(ctx.term, {
      label: 'events',
      noun: ['event', 'events'],
      now: ctx.deps.now,
      recordsToTerminal: !flags.all || recordsToTerminal(ctx.term, output),
    });
    const seen = { pages: 0, records: 0 };
    const onPage = (p: { results: unknown[]; count?: number | undefined }): void => {
      seen.pages++;
      seen.records += p.results.length;
      progress.update({ ...seen, totalRecords: page === 1 ? p.count : undefined });
    };
    // With --all and slow pages, the pages left (known from the count) go out several at once, in order.
    const events = endingProgress(
      listEvents(
        http,
        { page, pageSize, filters },
        flags.all,
        (last) => (more = last),
        () => pagesInFlightFor(http.load()),
        onPage,
      ),
      progress,
    );
    let count: number;
    try {
      count = await printList(ctx.term, output, events, EVENT_COLUMNS);
    } catch (err) {
      // Past the last page the service says only "Invalid page.": say how many pages there are.
      const { ApiError } = await import('../../lib/errors.js');
      if (!(err instanceof ApiError && err.status === 404 && page > 1)) throw err;
      const { pastLastPage } = await import('../../lib/events/pages.js');
      throw await pastLastPage(http, err, { page, pageSize, filters });
    }
    if (count === 0 && output.format === 'table') ctx.term.notice('No events.');
    if (more?.next && !flags.all) {
      ctx.term.notice(
        `${more.count === undefined ? 'More events' : plural(more.count, 'event')} in all; this was page ${page}. Use --page ${page + 1} or --all for more.`,
      );
    }
  },
});
