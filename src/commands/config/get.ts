import type { Context } from '../../app/context.js';
import { CONFIG_KEYS, maskSecret, validateConfigValue } from '../../lib/config.js';
import { UsageError } from '../../lib/errors.js';

/** `creators config get <key>`: prints the value; exit 2 when it is not set. */
export async function run(ctx: Context, [key = '']: string[], opts: Record<string, unknown>): Promise<void> {
  if (!CONFIG_KEYS[key]) validateConfigValue(key, '');
  const value = (await ctx.config()).get(key);
  if (value === undefined) throw new UsageError(`'${key}' is not set in profile '${ctx.profileName}'.`);
  const text = String(value);
  ctx.io.stdout.write(`${CONFIG_KEYS[key]?.secret && !opts.showSecret ? maskSecret(text) : text}\n`);
}
