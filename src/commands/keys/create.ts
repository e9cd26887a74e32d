import { defineCommand, isoTime } from '../../app/command.js';
import type { KeyChanges } from '../../lib/api/keys.js';

/**
 * `creators keys create [--name] [--expires-at]`: a new key, its value printed once in full (as gh and
 * stripe do), in every format, with a warning on stderr; every other message of the run masks it.
 */
export default defineCommand({
  name: 'create',
  description: 'Create a long-lived API key (its value is printed once, in full)',
  flags: {
    name: { flags: '--name <name>', description: 'label of the key' },
    expiresAt: {
      flags: '--expires-at <iso>',
      description: 'expiry as an ISO 8601 date or time (default: never)',
      value: isoTime,
    },
    // Kept so scripts written when create masked the value still run; the value is now always shown.
    showToken: {
      flags: '--show-token',
      description: 'accepted for compatibility: the new key is always printed in full',
    },
  },
  examples: [
    ['creators keys create --name ci', 'new key, value printed once in full: copy it then'],
    ["creators keys create --name ci --json | jq -r '.token'", 'just the key, for a secret store'],
    ['creators keys create --name temp --expires-at 2027-01-31', 'expires at midnight UTC'],
  ],
  async run(ctx, { flags }) {
    const [{ createKey, createKeyPlan }, { KEY_COLUMNS }, { printItem }] = await Promise.all([
      import('../../lib/api/keys.js'),
      import('../../lib/auth/api-keys.js'),
      import('../../lib/output/index.js'),
    ]);
    const changes: KeyChanges = {};
    if (flags.name !== undefined) changes.name = flags.name;
    if (flags.expiresAt) changes.expires_at = flags.expiresAt;
    const output = await ctx.output();
    if (!(await ctx.money.gate(createKeyPlan(changes)))) return;
    const key = await createKey(await ctx.http(), changes);
    // The new key joins the run's secrets: warnings, errors and debug lines from here on mask it. Only the
    // data output below (stdout or -o) shows it, on purpose.
    ctx.term.secrets.add(key.token);
    await printItem(ctx.term, output, key, KEY_COLUMNS);
    if (typeof key.token === 'string') {
      ctx.term.warn('Copy the new key now and keep it secret: it will not be shown again (keys list masks it).');
    }
  },
});
