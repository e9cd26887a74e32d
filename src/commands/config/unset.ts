import { defineCommand } from '../../app/command.js';
import type { SettingChange } from '../../lib/config-change.js';

/**
 * `creators config unset <key>`. Unsetting a key that is not set is not an error. Under
 * `--dry-run` the change is printed and the file is not written.
 */
export default defineCommand({
  name: 'unset',
  description: 'Remove a setting from the profile',
  args: [
    {
      name: '<key>',
      description: 'setting name',
      complete: async () => Object.keys((await import('../../lib/config.js')).CONFIG_KEYS),
    },
  ],
  examples: [['creators config unset format', 'back to the default']],
  async run(ctx, { args: [key = ''] }) {
    const { CONFIG_KEYS, validateConfigValue } = await import('../../lib/config.js');
    if (!CONFIG_KEYS[key]) validateConfigValue(key, '');
    const store = await ctx.config.store();
    if (ctx.dryRun) {
      const { printSettingsPlan, shownValue } = await import('../../lib/config-change.js');
      const change: SettingChange = { action: 'unset', key, value: null, previous: shownValue(key, store.get(key)) };
      await printSettingsPlan(ctx.term, await ctx.dryRunOutput(), {
        dry_run: true,
        profile: ctx.profileName,
        file: store.path,
        changes: [change],
      });
      return;
    }
    store.unset(key);
    ctx.term.notice(`Unset ${key} in profile '${ctx.profileName}'.`);
  },
});
