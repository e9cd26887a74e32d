import { defineCommand, integer } from '../app/command.js';
import { CONTENT_KINDS, CONTENT_PLATFORMS } from '../contract/platforms.js';
import type { ColumnSpec, DataRecord } from '../lib/output/index.js';
import { UsageError } from '../lib/errors.js';
import { checkPlatform } from '../lib/platforms.js';

const COMMENT_COLUMNS: ColumnSpec[] = [
  { path: 'username', header: 'user', keep: true },
  { path: 'text', header: 'comment' },
  { path: 'like_count', header: 'likes', kind: 'count' },
  { path: 'created_at', header: 'date', kind: 'date' },
];

/** `creators post <id|url>`: data, comments, transcript or audio of one post (0.03 credits a request). */
export default defineCommand({
  name: 'post',
  description: 'Details of one post: data, comments, transcript or audio (0.03 credits per request)',
  args: [{ name: '<post-id|url>', description: 'the platform post id, or the post URL' }],
  flags: {
    platform: {
      flags: '--platform <p>',
      description: 'instagram, tiktok or youtube (default: from the URL, or the profile setting `platform`)',
      complete: CONTENT_PLATFORMS,
    },
    kind: { flags: '--kind <kind>', description: 'what to fetch', choices: CONTENT_KINDS, default: 'data' },
    all: { flags: '--all', description: 'comments: follow the cursor through every page (each page is a request)' },
    maxPages: {
      flags: '--max-pages <n>',
      description: 'comments with --all: stop after n pages',
      value: integer({ min: 1 }),
    },
    cursor: {
      flags: '--cursor <token>',
      description: 'comments: start at the page of this cursor (the "next cursor" a previous run printed)',
    },
  },
  examples: [
    ['creators post https://www.instagram.com/p/C1a2B3c4D5e/', 'post data, platform from the URL'],
    ['creators post 7301234567890123456 --platform tiktok --kind transcript', 'a TikTok transcript'],
    [
      'creators post dQw4w9WgXcQ --platform youtube --kind comments --all --format jsonl',
      'every comment, one per line',
    ],
    [
      'creators post dQw4w9WgXcQ --platform youtube --kind comments --cursor YzoyNQ',
      'the next page of comments, from the cursor a run printed',
    ],
  ],
  async run(ctx, { args: [ref = ''], flags }) {
    const [
      { commentPages, commentPagesPlan, commentsOf, detailsPageOf, parsePostRef, postDetails },
      { planAfterStoredPages },
      { creditCount, plural },
      { storedPages, withArticle },
      { printItem },
      { printPaidItem, printPaidList },
      { endingProgress, pagingProgress, recordsToTerminal },
    ] = await Promise.all([
      import('../lib/api/content.js'),
      import('../lib/api/plan.js'),
      import('../lib/words.js'),
      import('../lib/output/humanize.js'),
      import('../lib/output/index.js'),
      import('../lib/output/paid.js'),
      import('../lib/bulk/progress.js'),
    ]);
    // commander has checked the choices; `find` gives the typed value.
    const kind = CONTENT_KINDS.find((k) => k === flags.kind) ?? 'data';
    // The URL's platform wins over the profile setting, but --platform must agree with it.
    const flagPlatform = flags.platform === undefined ? undefined : checkPlatform(flags.platform, CONTENT_PLATFORMS);
    const parsed = parsePostRef(ref);
    if (parsed.platform && flagPlatform && parsed.platform !== flagPlatform)
      throw new UsageError(`The URL is ${withArticle(parsed.platform)} post but --platform is ${flagPlatform}.`);
    const platform =
      parsed.platform ?? flagPlatform ?? (await ctx.config.optionalPlatform(undefined, CONTENT_PLATFORMS));
    if (!platform)
      throw new UsageError('--platform is required when the post is given by id.', {
        hint: 'Use instagram, tiktok or youtube.',
      });
    if (platform === 'youtube' && kind === 'audio')
      throw new UsageError('YouTube posts have no audio kind.', { hint: 'Use --kind data, comments or transcript.' });
    if (flags.all && kind !== 'comments') throw new UsageError('--all applies to --kind comments.');
    if (flags.cursor !== undefined && kind !== 'comments') throw new UsageError('--cursor applies to --kind comments.');
    const cursor = flags.cursor?.trim() || undefined;
    if (flags.cursor !== undefined && cursor === undefined)
      throw new UsageError('--cursor needs the token a previous run printed (next cursor ...).');
    const maxPages = flags.maxPages;
    if (maxPages !== undefined && !flags.all) throw new UsageError('--max-pages needs --all.');

    const http = await ctx.http();
    const req = { platform, postId: parsed.postId, kind, paginationToken: cursor };
    // `--all` without --max-pages has no known bound: a --max-credits budget then bounds the number of pages instead.
    // Pages the store holds (a stopped run's, an earlier one's) are named in the plan and not priced.
    const { plan, pages } = await planAfterStoredPages((p) => ctx.store.storedAnswer(p), {
      plan: (token, bound) => commentPagesPlan({ ...req, paginationToken: token }, bound),
      next: (data) => detailsPageOf(data).nextToken,
      first: cursor,
      bound: { maxPages: flags.all ? maxPages : 1, budget: await ctx.money.budget() },
    });
    if (!(await ctx.money.gate(plan))) return;
    const output = await ctx.output();
    const readerTook = (await import('../lib/output/sink.js')).readerPace(ctx.term, output, ctx.deps.signal);
    // The terminal summary, as search's: what this run spent and, when the answer says, what is left.
    const spentLine = (spentMilli: number, left: number | undefined, pagesText = ''): string =>
      `${creditCount(spentMilli)} spent${pagesText}${left === undefined ? '' : `; ${plural(left, 'credit')} left`}.`;

    if (kind === 'comments') {
      let spent = 0;
      let last: string | undefined;
      let left: number | undefined;
      const got = { pages: 0, fromStore: 0, comments: 0 };
      // --all on a terminal: pages, comments and credits so far.
      const progress = pagingProgress(ctx.term, {
        label: 'comments',
        noun: ['comment', 'comments'],
        now: ctx.deps.now,
        recordsToTerminal: !flags.all || recordsToTerminal(ctx.term, output),
      });
      async function* comments(): AsyncGenerator<DataRecord> {
        for await (const page of commentPages(http, req, pages)) {
          // A page from the store was paid for when it was bought: 0 credits now (and no balance).
          spent += Math.round(page.creditsCost * 1000);
          got.pages++;
          if (page.storedAt !== undefined) got.fromStore++;
          last = page.nextToken;
          left = page.creditsLeft ?? left;
          const shown = commentsOf(page);
          got.comments += shown.length;
          progress.update({ pages: got.pages, records: got.comments, creditsMilli: spent });
          yield* shown;
          // The next page waits until stdout has taken this one: a reader blocked or gone is bought nothing more.
          await readerTook();
        }
      }
      // A run stopped part-way keeps the comments it paid for (the output is marked partial).
      const count = await printPaidList(ctx.term, output, endingProgress(comments(), progress), COMMENT_COLUMNS, {
        spentMilli: () => spent,
        noun: 'comments',
      });
      if (count === 0) ctx.term.notice('No comments found (not charged).');
      if (last && !flags.all)
        ctx.term.notice(`More comments: add --all (next cursor ${last}; --cursor ${last} reads the next page).`);
      else if (last) ctx.term.notice(`Stopped after the page limit; more comments remain.`);
      if (ctx.term.stderrIsTTY && (spent > 0 || got.fromStore > 0))
        ctx.term.notice(
          spentLine(spent, left, storedPages(got, got.fromStore > 0 ? await ctx.store.storeClause() : '')),
        );
      return;
    }

    const page = await postDetails(http, req);
    if (page.status === 'not_found') {
      ctx.term.notice(`No ${kind} found for ${platform} post ${parsed.postId} (not charged).`);
      await printItem(ctx.term, output, { platform, post_id: parsed.postId, status: 'not_found' });
      return;
    }
    const spent = Math.round(page.creditsCost * 1000);
    await printPaidItem(ctx.term, output, page.result ?? {}, undefined, spent);
    if (ctx.term.stderrIsTTY) ctx.term.notice(spentLine(spent, page.creditsLeft));
  },
});
