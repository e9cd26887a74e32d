import type { Context } from '../../../app/context.js';
import { listeningPath, send } from '../../../lib/api/listening.js';
import { UsageError } from '../../../lib/errors.js';
import { printItem } from '../../../lib/output/index.js';
import { bodyFlags, buildBody, CAMPAIGN_COLUMNS, creatorRefs, guardMonitoring } from '../shared.js';
import { daysOption } from './fields.js';

/**
 * `creators listening campaigns create --name <n> [--days n] [creator...]`: shows the monitoring
 * estimate (creators x days x 0.3) first and honours --max-credits before anything is sent.
 */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const days = daysOption(opts.days);
  const refs = await creatorRefs(ctx, args, opts, false);
  const body = await buildBody(ctx, bodyFlags(opts), {
    name: opts.name as string | undefined,
    days,
    creators: refs.length > 0 ? refs : undefined,
  });
  if (body.name === undefined) throw new UsageError('A campaign needs a name: --name <name> (or name in --body/--set).');
  const path = listeningPath('campaign');
  const output = await ctx.output();
  const http = await ctx.http();
  const n = Array.isArray(body.creators) ? body.creators.length : 0;
  const bodyDays = typeof body.days === 'number' ? body.days : undefined;
  if (!(await guardMonitoring(ctx, http, { method: 'POST', path, body, creators: n, days: bodyDays }))) return;
  const created = await send(http, 'POST', path, body);
  if (created) await printItem(ctx.io, output, created, CAMPAIGN_COLUMNS);
}
