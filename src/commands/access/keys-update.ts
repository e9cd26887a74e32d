import type { Context } from '../../app/context.js';
import { keyPath, updateKey, type KeyChanges } from '../../lib/api/keys.js';
import { UsageError } from '../../lib/errors.js';
import { printItem } from '../../lib/output/index.js';
import { KEY_COLUMNS, maskKey, parseExpiry, planFree, positiveId } from './common.js';

/** `creators keys update <id> [--name] [--active|--inactive] [--expires-at <iso>|none]`. */
export async function run(ctx: Context, args: string[], opts: Record<string, unknown>): Promise<void> {
  const id = positiveId(args[0], 'key id');
  if (opts.active && opts.inactive) throw new UsageError('--active and --inactive cannot be used together.');
  const changes: KeyChanges = {};
  if (opts.name !== undefined) changes.name = String(opts.name);
  if (opts.active) changes.active = true;
  if (opts.inactive) changes.active = false;
  const expiry = parseExpiry(opts.expiresAt, true);
  if (expiry !== undefined) changes.expires_at = expiry;
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Nothing to change.', { hint: 'Give --name, --active, --inactive or --expires-at.' });
  }
  const output = await ctx.output();
  if (!(await planFree(ctx, 'PATCH', keyPath(id), changes))) return;
  const key = await updateKey(await ctx.http(), id, changes);
  await printItem(ctx.io, output, maskKey(key, Boolean(opts.showToken)), KEY_COLUMNS);
}
