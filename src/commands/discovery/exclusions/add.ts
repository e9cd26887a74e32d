import type { Context } from '../../../app/context.js';
import { changeEntries, listPath, MAX_HANDLES_PER_REQUEST, parseListRef } from '../../../lib/api/exclusions.js';
import { guardCost } from '../../../app/legacy.js';
import { readHandleLines, uniqueHandles } from '../../../lib/discovery/exclusions.js';
import { UsageError } from '../../../lib/errors.js';
import { buildUrl } from '../../../lib/http/url.js';
import { printItem } from '../../../lib/output/index.js';
import { LIST_COLUMNS } from './columns.js';

/** `creators exclusions add <list> <handle...> [--file f|-]` (free), chunks of at most 10,000. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  await change(ctx, args, opts, 'add');
}

/** Shared by add and remove: handles from arguments and/or a file, sent as given (the API normalises). */
export async function change(ctx: Context, [list = '', ...args]: string[], opts: Record<string, unknown>, action: 'add' | 'remove'): Promise<void> {
  const ref = parseListRef(list);
  const fromFile = opts.file === undefined ? [] : await readHandleLines(ctx, String(opts.file), '--file');
  const handles = uniqueHandles([...args, ...fromFile]);
  if (handles.length === 0) throw new UsageError(`No handles to ${action}.`, { hint: 'Give handles as arguments, or --file <file|-> with one per line.' });
  const http = await ctx.http();
  const requests = Math.ceil(handles.length / MAX_HANDLES_PER_REQUEST);
  const plan = {
    method: action === 'add' ? 'POST' : 'DELETE',
    url: buildUrl(http.baseUrl, `${listPath(ref)}/entries`).href,
    body: { handles: handles.slice(0, MAX_HANDLES_PER_REQUEST) },
    worstCaseMilli: 0,
    costBasis: `${handles.length} handles in ${requests} request${requests === 1 ? '' : 's'}, free`,
  };
  if (!(await guardCost(ctx, plan))) return;
  const result = await changeEntries(http, ref, handles, action);
  ctx.notice(`${action === 'add' ? 'Added' : 'Removed'} ${handles.length} handle${handles.length === 1 ? '' : 's'} (${requests} request${requests === 1 ? '' : 's'}).`);
  if (result && typeof result === 'object') await printItem(ctx.io, await ctx.output(), result, LIST_COLUMNS);
}
