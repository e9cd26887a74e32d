import { defineCommand, integer } from '../app/command.js';
import { CONTENT_PLATFORMS, POSTS_PAGE_SIZES } from '../contract/platforms.js';
import type { ColumnSpec, DataRecord } from '../lib/output/index.js';
import { UsageError } from '../lib/errors.js';
import { checkPlatform } from '../lib/platforms.js';

/** The URL is the post's identifier (kept whole); the caption is cut first, then columns leave in priority order. */
const POST_COLUMNS: ColumnSpec[] = [
  { path: 'created_at', header: 'date', kind: 'date', priority: 3 },
  { path: 'type', header: 'type', whole: true, priority: 0 },
  { path: 'caption', header: 'caption', kind: 'text', priority: 1 },
  { path: 'engagement.likes', header: 'likes', kind: 'count', priority: 2 },
  { path: 'engagement.comments', header: 'comments', kind: 'count', priority: -1 },
  { path: 'engagement.views', header: 'views', kind: 'count', priority: 1 },
  { path: 'post_url', header: 'url', keep: true },
];

/** `creators posts <handle|url>`: a creator's posts, newest first, a page per request. */
export default defineCommand({
  name: 'posts',
  description:
    "A creator's posts, newest first (a page per request; budgeted at 0.15 credits a page, the highest published price)",
  args: [{ name: '<handle|url>', description: 'username or profile URL' }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'instagram, tiktok or youtube (default: from the URL, or the profile setting `platform`)',
      complete: CONTENT_PLATFORMS,
    },
    count: {
      flags: '--count <n>',
      description:
        'posts per page: TikTok up to 35 (default 30), YouTube up to 50 (default 30); Instagram pages are a fixed 12',
      value: integer({ min: 1 }),
    },
    all: { flags: '--all', description: 'follow the cursor through every page (each page is a request)' },
    maxPages: { flags: '--max-pages <n>', description: 'with --all: stop after n pages', value: integer({ min: 1 }) },
    cursor: {
      flags: '--cursor <token>',
      description: 'start at the page of this cursor (the "next cursor" a previous run printed)',
    },
  },
  examples: [
    ['creators posts noah_paws --platform instagram', 'the newest 12 posts'],
    [
      'creators posts themaxtech --platform tiktok --count 35 --all --max-pages 2 --format csv',
      'up to 70 posts as CSV',
    ],
    ['creators posts https://www.youtube.com/@daniel_wanders --all --dry-run', 'what --all may cost, nothing sent'],
    ['creators posts noah_paws --platform instagram --cursor cDoxMg', 'the next page, from the cursor a run printed'],
  ],
  async run(ctx, { args: [ref = ''], flags }) {
    const [
      { creatorPostPages, creatorPostsPlan, nextPostsToken, platformOfProfileUrl, postsPageOf },
      { cleanHandle },
      { planAfterStoredPages },
      { creditCount, plural },
      { storedPages, withArticle },
      { printPaidList },
      { endingProgress, pagingProgress, recordsToTerminal },
    ] = await Promise.all([
      import('../lib/api/creators.js'),
      import('../lib/api/enrichment.js'),
      import('../lib/api/plan.js'),
      import('../lib/words.js'),
      import('../lib/output/humanize.js'),
      import('../lib/output/paid.js'),
      import('../lib/bulk/progress.js'),
    ]);
    const handle = cleanHandle(ref);
    // The URL's platform wins over the profile setting, but --platform must agree with it.
    const fromUrl = platformOfProfileUrl(handle);
    const flagPlatform = flags.platform === undefined ? undefined : checkPlatform(flags.platform, CONTENT_PLATFORMS);
    if (fromUrl && flagPlatform && fromUrl !== flagPlatform)
      throw new UsageError(`The URL is ${withArticle(fromUrl)} profile but --platform is ${flagPlatform}.`);
    const chosen = flagPlatform ?? fromUrl ?? (await ctx.config.platform(undefined, CONTENT_PLATFORMS));
    const platform = CONTENT_PLATFORMS.find((p) => p === chosen);
    if (!platform)
      throw new UsageError(`Posts are not available for ${chosen}.`, { hint: 'Use instagram, tiktok or youtube.' });
    const count = flags.count;
    const size = POSTS_PAGE_SIZES[platform];
    if (count !== undefined && size.fixed)
      throw new UsageError(`Instagram pages are a fixed ${size.default} posts; --count does not apply.`);
    if (count !== undefined && (count < 1 || count > size.max))
      throw new UsageError(`--count must be 1 to ${size.max} on ${platform}.`);
    const maxPages = flags.maxPages;
    if (maxPages !== undefined && !flags.all) throw new UsageError('--max-pages needs --all.');

    const http = await ctx.http();
    const cursor = flags.cursor?.trim() || undefined;
    if (flags.cursor !== undefined && cursor === undefined)
      throw new UsageError('--cursor needs the token a previous run printed (next cursor ...).');
    const req = { platform, handle, count, paginationToken: cursor };
    // `--all` without --max-pages has no known bound: a --max-credits budget then bounds the number of pages instead.
    // Pages the store holds (a stopped run's, an earlier one's) are named in the plan and not priced.
    const { plan, pages } = await planAfterStoredPages((p) => ctx.store.storedAnswer(p), {
      plan: (token, bound) => creatorPostsPlan({ ...req, paginationToken: token }, bound),
      next: (data) => nextPostsToken(postsPageOf(data)),
      first: cursor,
      bound: { maxPages: flags.all ? maxPages : 1, budget: await ctx.money.budget() },
    });
    if (!(await ctx.money.gate(plan))) return;
    const output = await ctx.output();
    const readerTook = (await import('../lib/output/sink.js')).readerPace(ctx.term, output, ctx.deps.signal);

    let spent = 0;
    let last: string | undefined;
    let left: number | undefined;
    const got = { pages: 0, fromStore: 0, posts: 0 };
    // --all on a terminal: pages, posts and credits so far.
    const progress = pagingProgress(ctx.term, {
      label: 'posts',
      noun: ['post', 'posts'],
      now: ctx.deps.now,
      recordsToTerminal: !flags.all || recordsToTerminal(ctx.term, output),
    });
    async function* posts(): AsyncGenerator<DataRecord> {
      for await (const page of creatorPostPages(http, req, pages)) {
        // A page from the store was paid for when it was bought: 0 credits now.
        spent += Math.round(page.creditsCost * 1000);
        got.pages++;
        got.posts += page.posts.length;
        if (page.storedAt !== undefined) got.fromStore++;
        last = page.nextToken;
        left = page.creditsLeft ?? left;
        progress.update({ pages: got.pages, records: got.posts, creditsMilli: spent });
        yield* page.posts;
        // The next page waits until stdout has taken this one: a reader blocked or gone is bought nothing more.
        await readerTook();
      }
    }
    // A run stopped part-way keeps the posts it paid for (the output is marked partial).
    const printed = await printPaidList(ctx.term, output, endingProgress(posts(), progress), POST_COLUMNS, {
      spentMilli: () => spent,
      noun: 'posts',
    });
    if (printed === 0) ctx.term.notice(`No posts found for ${platform} creator ${handle} (not charged).`);
    if (last && !flags.all)
      ctx.term.notice(`More posts: add --all (next cursor ${last}; --cursor ${last} reads the next page).`);
    else if (last) ctx.term.notice('Stopped after the page limit; more posts remain.');
    // The summary as `post` ends: what this run spent and, when the answer says, what is left.
    if (ctx.term.stderrIsTTY && (spent > 0 || got.fromStore > 0)) {
      const clause = got.fromStore > 0 ? await ctx.store.storeClause() : '';
      ctx.term.notice(
        `${creditCount(spent)} spent${storedPages(got, clause)}${left === undefined ? '' : `; ${plural(left, 'credit')} left`}.`,
      );
    }
  },
});
