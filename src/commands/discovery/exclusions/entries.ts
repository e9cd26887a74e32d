import type { Context } from '../../../app/context.js';
import { allEntries, listEntries, parseListRef } from '../../../lib/api/exclusions.js';
import { UsageError } from '../../../lib/errors.js';
import { parseIntegerOption } from '../../../lib/options.js';
import { printList } from '../../../lib/output/index.js';

const MAX_LIMIT = 2000;

/** `creators exclusions entries <list> [--limit n] [--offset n] [--all]` (free), one `{handle}` record each. */
export async function run(ctx: Context, [list = '']: string[], opts: Record<string, unknown>): Promise<void> {
  const ref = parseListRef(list);
  const limit = parseIntegerOption(opts.limit, '--limit', 1) ?? 1000;
  if (limit > MAX_LIMIT) throw new UsageError(`Invalid --limit ${limit}: at most ${MAX_LIMIT} handles per page.`);
  const offset = parseIntegerOption(opts.offset, '--offset', 0) ?? 0;
  const http = await ctx.http();
  const output = await ctx.output();
  let handles: AsyncIterable<string> | string[];
  let total: number | undefined;
  if (opts.all) {
    handles = allEntries(http, ref, limit, offset);
  } else {
    const page = await listEntries(http, ref, { offset, limit });
    handles = page.handles;
    total = typeof page.total === 'number' ? page.total : undefined;
  }
  const count = await printList(ctx.io, output, asRecords(handles), [{ path: 'handle', header: 'handle' }]);
  if (count === 0 && output.format === 'table') ctx.notice('No handles.');
  if (total !== undefined && offset + count < total) ctx.notice(`Showing ${count} of ${total} handles; add --all for every page.`);
}

async function* asRecords(handles: AsyncIterable<string> | string[]): AsyncGenerator<Record<string, unknown>> {
  for await (const handle of handles) yield { handle };
}
