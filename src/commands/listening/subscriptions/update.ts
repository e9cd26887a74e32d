import type { Context } from '../../../app/context.js';
import { getOne, listeningPath, send } from '../../../lib/api/listening.js';
import { guardCost } from '../../../app/legacy.js';
import { UsageError } from '../../../lib/errors.js';
import { printItem } from '../../../lib/output/index.js';
import { bodyFlags, buildBody, guardMonitoring, idArg, SUBSCRIPTION_COLUMNS } from '../shared.js';
import { eventTypes, webhookUrl } from './fields.js';

/** `creators listening subscriptions update <id>`: PATCH; `--resume` after a top-up, `--pause` to stop. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const path = listeningPath('subscription', idArg(args, 'subscription'));
  if (opts.pause && opts.resume) throw new UsageError('--pause and --resume cannot be used together.');
  const body = await buildBody(ctx, bodyFlags(opts), {
    name: opts.name as string | undefined,
    event_types: eventTypes(opts.type),
    webhook_url: webhookUrl(opts.webhookUrl),
    status: opts.pause ? 'paused' : opts.resume ? 'active' : undefined,
  });
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to change.', { hint: 'Give --name, --type, --webhook-url, --pause, --resume, --set key=value or --body <file>.' });
  }
  const output = await ctx.output();
  const http = await ctx.http();
  const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/${path}`;
  if (body.status === 'active') {
    // Resuming restarts the daily monitoring charge: one day for each creator watched (a free read first).
    const creators = Number((await getOne(http, path)).creators_count) || 0;
    if (!(await guardMonitoring(ctx, http, { method: 'PATCH', path, body, creators, days: undefined }))) return;
  } else if (!(await guardCost(ctx, { method: 'PATCH', url, body, worstCaseMilli: 0 }))) {
    return;
  }
  const updated = await send(http, 'PATCH', path, body);
  if (updated) await printItem(ctx.io, output, updated, SUBSCRIPTION_COLUMNS);
}
