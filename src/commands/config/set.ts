import type { Context } from '../../app/context.js';
import { validateConfigValue } from '../../lib/config.js';
import { UsageError } from '../../lib/errors.js';
import { readAllText } from '../../lib/input.js';

/** `creators config set <key> <value>`; a value of `-` is read from stdin (for secrets). */
export async function run(ctx: Context, [key = '', raw = '']: string[]): Promise<void> {
  const value = raw === '-' ? (await readAllText(ctx, '-')).trim() : raw;
  if (value === '') throw new UsageError(`Empty value for '${key}'.`, { hint: `To remove it: creators config unset ${key}` });
  validateConfigValue(key, value);
  const store = await ctx.config();
  store.set(key, key === 'api-key' ? value.replace(/^Bearer\s+/i, '') : value);
  ctx.notice(`Set ${key} in profile '${ctx.profileName}'.`);
}
