import type { Context } from '../../app/context.js';
import { CONFIG_KEYS, maskSecret } from '../../lib/config.js';
import { printList } from '../../lib/output/index.js';

/** `creators config list`: every setting of the profile, secrets masked, stored logins summarised. */
export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const rows: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(store.all())) {
    if (key === 'oauth') {
      rows.push({ key: 'login', value: 'stored (use `creators auth status`)' });
      continue;
    }
    if (value && typeof value === 'object') continue;
    const text = String(value);
    rows.push({ key, value: CONFIG_KEYS[key]?.secret ? maskSecret(text) : text });
  }
  const output = await ctx.output();
  await printList(ctx.io, output, rows, [
    { path: 'key', header: 'Key' },
    { path: 'value', header: 'Value' },
  ]);
  if (rows.length === 0) ctx.notice(`Profile '${ctx.profileName}' has no settings.`);
}
