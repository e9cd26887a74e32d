import type { Context } from '../../../app/context.js';
import { createExclusionList } from '../../../lib/api/exclusions.js';
import { guardCost } from '../../../app/legacy.js';
import { UsageError } from '../../../lib/errors.js';
import { buildUrl } from '../../../lib/http/url.js';
import { printItem } from '../../../lib/output/index.js';
import { checkPlatform, DISCOVERY_PLATFORMS } from '../../../lib/platforms.js';
import { LIST_COLUMNS } from './columns.js';

/** `creators exclusions create <name> --platform p` (free). */
export async function run(ctx: Context, [name = '']: string[], opts: Record<string, unknown>): Promise<void> {
  const clean = name.trim();
  if (!clean || clean.length > 300) throw new UsageError('The list name must be 1 to 300 characters.');
  const raw = (opts.platform as string | undefined) ?? (await ctx.setting('platform'));
  if (!raw) throw new UsageError('--platform is required.', { hint: `Use one of: ${DISCOVERY_PLATFORMS.join(', ')}.` });
  const platform = checkPlatform(raw, DISCOVERY_PLATFORMS);
  const http = await ctx.http();
  const body = { name: clean, platform };
  if (!(await guardCost(ctx, { method: 'POST', url: buildUrl(http.baseUrl, 'discovery/exclusion-lists').href, body, worstCaseMilli: 0 }))) return;
  const list = await createExclusionList(http, clean, platform);
  await printItem(ctx.io, await ctx.output(), list, LIST_COLUMNS);
}
