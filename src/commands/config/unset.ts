import type { Context } from '../../app/context.js';
import { CONFIG_KEYS, validateConfigValue } from '../../lib/config.js';

/** `creators config unset <key>`. Unsetting a key that is not set is not an error. */
export async function run(ctx: Context, [key = '']: string[]): Promise<void> {
  if (!CONFIG_KEYS[key]) validateConfigValue(key, '');
  (await ctx.config()).unset(key);
  ctx.notice(`Unset ${key} in profile '${ctx.profileName}'.`);
}
