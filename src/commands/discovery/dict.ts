import type { Context } from '../../app/context.js';
import { listDictionary } from '../../lib/api/dictionary.js';
import { parseIntegerOption } from '../../lib/options.js';
import { printList, type ColumnSpec } from '../../lib/output/index.js';

/** `creators dict <kind>`: dictionary values for Discovery filters (free). */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [kind = ''] = args;
  const platform = (opts.platform as string | undefined) ?? (kind === 'locations' ? await ctx.setting('platform') : undefined);
  const output = await ctx.output();
  const http = await ctx.http();
  const entries = await listDictionary(http, {
    kind,
    platform,
    search: opts.search as string | undefined,
    limit: parseIntegerOption(opts.limit, '--limit'),
    offset: parseIntegerOption(opts.offset, '--offset'),
    exact: opts.exact as boolean | undefined,
  });
  const count = await printList(ctx.io, output, entries, columnsFor(entries[0]));
  if (count === 0 && output.format === 'table') ctx.notice('No entries found.');
}

/** Table columns from the first entry: scalar fields as they are, lists shown by their size. */
function columnsFor(first: Record<string, unknown> | undefined): ColumnSpec[] {
  if (!first) return [{ path: 'value', header: 'value' }];
  return Object.entries(first)
    .filter(([, v]) => v === null || typeof v !== 'object' || Array.isArray(v))
    .slice(0, 6)
    .map(([k, v]) => ({ path: k, header: k, kind: typeof v === 'number' ? 'number' : 'text' }));
}
