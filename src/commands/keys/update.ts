import { defineCommand, isoTimeOrNone } from '../../app/command.js';
import type { KeyChanges } from '../../lib/api/keys.js';
import { UsageError } from '../../lib/errors.js';
import { SHOW_TOKEN } from './flags.js';

/** `creators keys update <id> [--name] [--active|--inactive] [--expires-at <iso>|none]`. */
export default defineCommand({
  name: 'update',
  description: 'Rename, activate/deactivate or change the expiry of an API key',
  args: [{ name: '<id>', description: 'key id' }],
  flags: {
    name: { flags: '--name <name>', description: 'new label' },
    active: { flags: '--active', description: 'activate the key' },
    inactive: { flags: '--inactive', description: 'deactivate the key' },
    expiresAt: {
      flags: '--expires-at <iso|none>',
      description: "new expiry (ISO 8601), or 'none' to remove it",
      value: isoTimeOrNone,
    },
    ...SHOW_TOKEN,
  },
  examples: [
    ['creators keys update 3 --inactive', 'turn a key off without deleting it'],
    ['creators keys update 3 --name deploy --expires-at none', 'rename, never expire'],
  ],
  async run(ctx, { args: [rawId], flags }) {
    const [{ positiveId }, { updateKey, updateKeyPlan }, { KEY_COLUMNS, maskKey }, { printItem }] = await Promise.all([
      import('../../lib/ids.js'),
      import('../../lib/api/keys.js'),
      import('../../lib/auth/api-keys.js'),
      import('../../lib/output/index.js'),
    ]);
    const id = positiveId(rawId, 'key id');
    if (flags.active && flags.inactive) throw new UsageError('--active and --inactive cannot be used together.');
    const changes: KeyChanges = {};
    if (flags.name !== undefined) changes.name = flags.name;
    if (flags.active) changes.active = true;
    if (flags.inactive) changes.active = false;
    if (flags.expiresAt !== undefined) changes.expires_at = flags.expiresAt;
    if (Object.keys(changes).length === 0) {
      throw new UsageError('Nothing to change.', { hint: 'Give --name, --active, --inactive or --expires-at.' });
    }
    const output = await ctx.output();
    if (!(await ctx.money.gate(updateKeyPlan(id, changes)))) return;
    const key = await updateKey(await ctx.http(), id, changes);
    await printItem(ctx.term, output, maskKey(key, flags.showToken), KEY_COLUMNS);
  },
});
