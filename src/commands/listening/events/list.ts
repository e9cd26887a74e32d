import type { Context } from '../../../app/context.js';
import { getEventsPage, type ListeningRecord } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { parseIntegerOption } from '../../../lib/options.js';
import { printList } from '../../../lib/output/index.js';
import { EVENT_COLUMNS } from '../shared.js';
import { eventFilters } from './filters.js';

/** The largest `page_size` the events route accepts. */
const MAX_PAGE_SIZE = 100;

/** `creators events list`: one page of events (1-based), or every page from it with --all. Free. */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const filters = eventFilters(opts);
  const page = parseIntegerOption(opts.page, '--page', 1) ?? 1;
  const pageSize = parseIntegerOption(opts.pageSize, '--page-size');
  // The service refuses page_size outside 1-100 (HTTP 400); checked here, so nothing is sent.
  if (pageSize !== undefined && (pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    throw new UsageError(`Invalid --page-size '${String(opts.pageSize)}': must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  const output = await ctx.output();
  const http = await ctx.http();
  let more: { count: number | undefined; next: string | null } | undefined;
  async function* events(): AsyncGenerator<ListeningRecord> {
    let current = await getEventsPage(http, { page, pageSize, filters });
    yield* current.results;
    const seen = new Set<string>([current.url]);
    while (opts.all && current.next && !seen.has(current.next)) {
      seen.add(current.next);
      current = await getEventsPage(http, { url: current.next });
      yield* current.results;
    }
    more = { count: current.count, next: current.next };
  }
  const count = await printList(ctx.io, output, events(), EVENT_COLUMNS);
  if (count === 0 && output.format === 'table') ctx.notice('No events.');
  if (more?.next && !opts.all) {
    ctx.notice(`${more.count ?? 'More'} event(s) in all; this was page ${page}. Use --page ${page + 1} or --all for more.`);
  }
}
