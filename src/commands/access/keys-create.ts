import type { Context } from '../../app/context.js';
import { createKey, type KeyChanges } from '../../lib/api/keys.js';
import { printItem } from '../../lib/output/index.js';
import { KEY_COLUMNS, maskKey, parseExpiry, planFree } from './common.js';

/** `creators keys create [--name] [--expires-at]`. */
export async function run(ctx: Context, _args: string[], opts: Record<string, unknown>): Promise<void> {
  const changes: KeyChanges = {};
  if (opts.name !== undefined) changes.name = String(opts.name);
  const expiry = parseExpiry(opts.expiresAt, false);
  if (expiry) changes.expires_at = expiry;
  const output = await ctx.output();
  if (!(await planFree(ctx, 'POST', 'accounts/tokens', changes))) return;
  const key = await createKey(await ctx.http(), changes);
  const show = Boolean(opts.showToken);
  await printItem(ctx.io, output, maskKey(key, show), KEY_COLUMNS);
  if (!show) ctx.notice('The key value is masked; add --show-token to print it in full.');
}
