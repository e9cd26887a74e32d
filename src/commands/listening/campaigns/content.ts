import { defineCommand } from '../../../app/command.js';
import { CONTENT_PAGE_SIZE } from '../../../contract/limits.js';
import { positiveId } from '../../../lib/ids.js';

/** `creators listening campaigns content <id>`: the campaign's content feed, every page, streamed (free). */
export default defineCommand({
  name: 'content',
  description: "The campaign's content feed (every page, streamed)",
  args: [{ name: '<id>', description: 'campaign id' }],
  examples: [
    ['creators listening campaigns content 2', 'table'],
    ['creators listening campaigns content 2 --format csv -o posts.csv', 'CSV file'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'campaign id');
    const [{ listAll, listeningPath }, { printList }, { endingProgress, pagingProgress, recordsToTerminal }] =
      await Promise.all([
        import('../../../lib/api/listening.js'),
        import('../../../lib/output/index.js'),
        import('../../../lib/bulk/progress.js'),
      ]);
    const output = await ctx.output();
    const http = await ctx.http();
    // Every page is read: the largest pages take the fewest requests, and a progress line shows them coming.
    const progress = pagingProgress(ctx.term, {
      label: 'content',
      noun: ['post', 'posts'],
      now: ctx.deps.now,
      recordsToTerminal: recordsToTerminal(ctx.term, output),
    });
    const seen = { pages: 0, records: 0 };
    const onPage = (p: { results: unknown[]; count?: number | undefined }): void => {
      seen.pages++;
      seen.records += p.results.length;
      progress.update({ ...seen, totalRecords: p.count });
    };
    const posts = endingProgress(
      listAll(http, listeningPath('campaign', id, 'content'), { page_size: CONTENT_PAGE_SIZE.max }, onPage),
      progress,
    );
    const count = await printList(ctx.term, output, posts, [
      { path: 'posted_at', header: 'Posted', kind: 'date' },
      { path: 'creator.platform', header: 'Platform' },
      { path: 'creator.platform_id', header: 'Creator', keep: true },
      { path: 'caption', header: 'Caption' },
      { path: 'views', header: 'Views', kind: 'count' },
      { path: 'likes', header: 'Likes', kind: 'count' },
      { path: 'url', header: 'URL' },
    ]);
    if (count === 0 && output.format === 'table') ctx.term.notice('No content yet.');
  },
});
