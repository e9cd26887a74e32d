import type { Context } from '../../../app/context.js';
import { listeningPath, send } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { printItem } from '../../../lib/output/index.js';
import { bodyFlags, buildBody, creatorRefs, guardMonitoring, SUBSCRIPTION_COLUMNS } from '../shared.js';
import { eventTypes, webhookUrl } from './fields.js';

/** `creators listening subscriptions create --name <n> [creator...]`: starts monitoring (billed per creator per day). */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const refs = await creatorRefs(ctx, args, opts, false);
  const body = await buildBody(ctx, bodyFlags(opts), {
    name: opts.name as string | undefined,
    event_types: eventTypes(opts.type),
    webhook_url: webhookUrl(opts.webhookUrl),
    creators: refs.length > 0 ? refs : undefined,
  });
  if (body.name === undefined) throw new UsageError('A subscription needs a name: --name <name> (or name in --body/--set).');
  const path = listeningPath('subscription');
  const output = await ctx.output();
  const http = await ctx.http();
  const n = Array.isArray(body.creators) ? body.creators.length : 0;
  if (!(await guardMonitoring(ctx, http, { method: 'POST', path, body, creators: n, days: undefined }))) return;
  const created = await send(http, 'POST', path, body);
  if (created) await printItem(ctx.io, output, created, SUBSCRIPTION_COLUMNS);
}
