import { defineCommand } from '../../app/command.js';
import type { SettingChange } from '../../lib/config-change.js';
import { UsageError } from '../../lib/errors.js';

/**
 * `creators config set <key> <value>`; a value of `-` is read from stdin (for secrets). Under
 * `--dry-run` the change is printed and the file is not written.
 */
export default defineCommand({
  name: 'set',
  description: 'Store a setting in the profile (file mode 0600)',
  args: [
    {
      name: '<key>',
      description: 'setting name',
      complete: async () => Object.keys((await import('../../lib/config.js')).CONFIG_KEYS),
    },
    { name: '<value>', description: 'value', stdin: true },
  ],
  examples: [
    ['creators config set max-credits 25', 'budget guard for every command'],
    ['printf %s "$KEY" | creators config set api-key -', 'store a key without putting it in shell history'],
  ],
  async run(ctx, { args: [key = '', raw = ''] }) {
    const [{ validateConfigValue }, { readInputText }] = await Promise.all([
      import('../../lib/config.js'),
      import('../../lib/io/input.js'),
    ]);
    const value = raw === '-' ? (await readInputText(ctx.term, '-', 'input')).trim() : raw;
    if (value === '')
      throw new UsageError(`Empty value for '${key}'.`, { hint: `To remove it: creators config unset ${key}` });
    validateConfigValue(key, value);
    let stored = key === 'api-key' ? value.replace(/^Bearer\s+/i, '') : value;
    // A relative store path would name a new store in every folder the CLI runs from: kept absolute.
    let resolved = '';
    if (key === 'store') {
      const { storeSettingToKeep } = await import('../../lib/store/location.js');
      stored = storeSettingToKeep(value, ctx.deps.cwd, ctx.deps.env.HOME);
      if (stored !== value.trim()) resolved = ` as ${stored} (resolved from ${value.trim()})`;
    }
    const store = await ctx.config.store();
    if (ctx.dryRun) {
      const { printSettingsPlan, shownValue } = await import('../../lib/config-change.js');
      const change: SettingChange = {
        action: 'set',
        key,
        value: shownValue(key, stored),
        previous: shownValue(key, store.get(key)),
      };
      await printSettingsPlan(ctx.term, await ctx.dryRunOutput(), {
        dry_run: true,
        profile: ctx.profileName,
        file: store.path,
        changes: [change],
      });
      return;
    }
    store.set(key, stored);
    ctx.term.notice(`Set ${key} in profile '${ctx.profileName}'${resolved}.`);
  },
});
