import { defineCommand } from '../../app/command.js';
import type { KeyChanges } from '../../lib/api/keys.js';
import { SHOW_TOKEN } from './flags.js';

/** `creators keys create [--name] [--expires-at]`: a new key, its value printed once. */
export default defineCommand({
  name: 'create',
  description: 'Create a long-lived API key',
  flags: {
    name: { flags: '--name <name>', description: 'label of the key' },
    expiresAt: { flags: '--expires-at <iso>', description: 'expiry as an ISO 8601 date or time (default: never)' },
    ...SHOW_TOKEN,
  },
  examples: [
    ['creators keys create --name ci --show-token', 'new key, value printed once in full'],
    ['creators keys create --name temp --expires-at 2027-01-31', 'expires at midnight UTC'],
  ],
  async run(ctx, { flags }) {
    const [{ createKey, createKeyPlan }, { KEY_COLUMNS, maskKey, parseExpiry }, { printItem }] = await Promise.all([
      import('../../lib/api/keys.js'),
      import('../../lib/auth/api-keys.js'),
      import('../../lib/output/index.js'),
    ]);
    const changes: KeyChanges = {};
    if (flags.name !== undefined) changes.name = flags.name;
    const expiry = parseExpiry(flags.expiresAt, false);
    if (expiry) changes.expires_at = expiry;
    const output = await ctx.output();
    if (!(await ctx.gate(createKeyPlan(changes)))) return;
    const key = await createKey(await ctx.http(), changes);
    await printItem(ctx.io, output, maskKey(key, flags.showToken), KEY_COLUMNS);
    if (!flags.showToken) ctx.notice('The key value is masked; add --show-token to print it in full.');
  },
});
