import type { Context } from '../../../app/context.js';
import { getOne, listeningPath, send } from '../../../lib/api/listening.js';
import { guardCost } from '../../../app/legacy.js';
import { UsageError } from '../../../lib/errors.js';
import { printItem } from '../../../lib/output/index.js';
import { bodyFlags, buildBody, CAMPAIGN_COLUMNS, guardMonitoring, idArg } from '../shared.js';
import { campaignDuration, daysOption } from './fields.js';

/**
 * `creators listening campaigns update <id>`: PATCH. With `--days` (extending the campaign) or
 * `--resume`, the monitoring estimate (its creators x days x 0.3) is shown and checked first.
 */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const id = idArg(args, 'campaign');
  const path = listeningPath('campaign', id);
  if (opts.pause && opts.resume) throw new UsageError('--pause and --resume cannot be used together.');
  const body = await buildBody(ctx, bodyFlags(opts), {
    name: opts.name as string | undefined,
    days: daysOption(opts.days),
    status: opts.pause ? 'paused' : opts.resume ? 'active' : undefined,
  });
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to change.', { hint: 'Give --name, --days, --pause, --resume, --set key=value or --body <file>.' });
  }
  const output = await ctx.output();
  const http = await ctx.http();
  if (body.days !== undefined || body.status === 'active') {
    // The creators are the campaign's own: a free read tells how many.
    const campaign = await getOne(http, path);
    const creators = Number(campaign.creators_count) || 0;
    // A resume without --days restarts monitoring for the days the campaign has left.
    const left = typeof body.days === 'number' ? {} : campaignDuration(campaign, id, ctx.deps.now());
    const days = typeof body.days === 'number' ? body.days : left.days;
    if (!(await guardMonitoring(ctx, http, { method: 'PATCH', path, body, creators, days, daysNote: left.note }))) return;
  } else {
    const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/${path}`;
    if (!(await guardCost(ctx, { method: 'PATCH', url, body, worstCaseMilli: 0 }))) return;
  }
  const updated = await send(http, 'PATCH', path, body);
  if (updated) await printItem(ctx.io, output, updated, CAMPAIGN_COLUMNS);
}
