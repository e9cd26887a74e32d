import { commentPages, commentsOf, CONTENT_PLATFORMS, detailsBody, parsePostRef, postDetails, type ContentKind } from '../../lib/api/content.js';
import type { Context } from '../../app/context.js';
import { formatCredits, PRICE_MILLI } from '../../lib/cost.js';
import { guardCost, maxCreditsMilli } from '../../app/legacy.js';
import { UsageError } from '../../lib/errors.js';
import { buildUrl } from '../../lib/http/url.js';
import { parseIntegerOption } from '../../lib/options.js';
import { printItem, printList, type ColumnSpec, type DataRecord } from '../../lib/output/index.js';
import { checkPlatform } from '../../lib/platforms.js';

const COMMENT_COLUMNS: ColumnSpec[] = [
  { path: 'username', header: 'user' },
  { path: 'text', header: 'comment' },
  { path: 'like_count', header: 'likes', kind: 'count' },
  { path: 'created_at', header: 'date', kind: 'date' },
];

/** `creators post <id|url>`: data, comments, transcript or audio of one post (0.03 credits a request). */
export async function run(ctx: Context, [ref = '']: string[], opts: Record<string, unknown>): Promise<void> {
  const kind = (opts.kind as ContentKind | undefined) ?? 'data';
  const flagPlatform = opts.platform === undefined ? undefined : checkPlatform(String(opts.platform), CONTENT_PLATFORMS);
  const parsed = parsePostRef(ref, flagPlatform);
  const fallback = parsed.platform ?? (await ctx.setting('platform'));
  if (!fallback) throw new UsageError('--platform is required when the post is given by id.', { hint: 'Use instagram, tiktok or youtube.' });
  const platform = checkPlatform(fallback, CONTENT_PLATFORMS);
  if (platform === 'youtube' && kind === 'audio') throw new UsageError('YouTube posts have no audio kind.', { hint: 'Use --kind data, comments or transcript.' });
  if (opts.all && kind !== 'comments') throw new UsageError('--all applies to --kind comments.');
  let maxPages = parseIntegerOption(opts.maxPages, '--max-pages', 1);
  if (maxPages !== undefined && !opts.all) throw new UsageError('--max-pages needs --all.');
  if (!opts.all) maxPages = 1;

  const http = await ctx.http();
  const req = { platform, postId: parsed.postId, kind };
  const price = PRICE_MILLI.postDetails;
  const budget = await maxCreditsMilli(ctx);
  // `--all` without --max-pages has no known bound: a budget then bounds the number of pages instead.
  const budgetPages = maxPages === undefined && budget !== undefined ? Math.floor(budget / price) : undefined;
  const plan = {
    method: 'POST',
    url: buildUrl(http.baseUrl, 'creators/content/details').href,
    body: detailsBody(req),
    // Bounded by the budget's page count when --max-pages is not given.
    worstCaseMilli: maxPages !== undefined ? maxPages * price : budgetPages !== undefined ? budgetPages * price : null,
    costBasis: maxPages === undefined
      ? `pages unknown x ${formatCredits(price)}${budgetPages !== undefined ? `; stops after ${budgetPages} pages to stay within --max-credits` : ''}`
      : `${maxPages} request${maxPages === 1 ? '' : 's'} x ${formatCredits(price)}`,
  };
  if (!(await guardCost(ctx, plan))) return;
  const output = await ctx.output();

  if (kind === 'comments') {
    const pages = commentPages(http, req, maxPages ?? budgetPages ?? Infinity);
    let spent = 0;
    let last: string | undefined;
    async function* comments(): AsyncGenerator<DataRecord> {
      for await (const page of pages) {
        spent += Math.round(page.creditsCost * 1000);
        last = page.nextToken;
        yield* commentsOf(page);
      }
    }
    const count = await printList(ctx.io, output, comments(), COMMENT_COLUMNS);
    if (count === 0) ctx.notice('No comments found (not charged).');
    if (last && !opts.all) ctx.notice(`More comments: add --all (next cursor ${last}).`);
    else if (last) ctx.notice(`Stopped after the page limit; more comments remain.`);
    if (ctx.io.stderrIsTTY && spent > 0) ctx.notice(`${formatCredits(spent)} credits spent.`);
    return;
  }

  const page = await postDetails(http, req);
  if (page.status === 'not_found') {
    ctx.notice(`No ${kind} found for ${platform} post ${parsed.postId} (not charged).`);
    await printItem(ctx.io, output, { platform, post_id: parsed.postId, status: 'not_found' });
    return;
  }
  await printItem(ctx.io, output, page.result ?? {});
  if (ctx.io.stderrIsTTY) ctx.notice(`${formatCredits(Math.round(page.creditsCost * 1000))} credits spent.`);
}
