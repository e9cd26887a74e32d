import type { Context } from '../../../app/context.js';
import { listAll, listeningPath } from '../../../lib/api/listening.js';
import { printList } from '../../../lib/output/index.js';
import { idArg } from '../shared.js';

/** `creators listening campaigns content <id>`: the campaign's content feed, every page, streamed. */
export async function run(ctx: Context, args: string[]): Promise<void> {
  const path = listeningPath('campaign', idArg(args, 'campaign'), 'content');
  const output = await ctx.output();
  const http = await ctx.http();
  const count = await printList(ctx.io, output, listAll(http, path), [
    { path: 'posted_at', header: 'Posted', kind: 'date' },
    { path: 'creator.platform', header: 'Platform' },
    { path: 'creator.platform_id', header: 'Creator' },
    { path: 'caption', header: 'Caption' },
    { path: 'views', header: 'Views', kind: 'count' },
    { path: 'likes', header: 'Likes', kind: 'count' },
    { path: 'url', header: 'URL' },
  ]);
  if (count === 0 && output.format === 'table') ctx.notice('No content yet.');
}
