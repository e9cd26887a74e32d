import { defineCommand } from '../../app/command.js';

/** `creators config list`: every setting of the profile, secrets masked, stored logins summarised. */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List the settings of the profile (secrets masked)',
  examples: [['creators config list --json', 'as JSON']],
  async run(ctx) {
    const [{ shownSetting }, { printList }] = await Promise.all([
      import('../../lib/config.js'),
      import('../../lib/output/index.js'),
    ]);
    const store = await ctx.config.store();
    const rows: Array<{ key: string; value: string }> = [];
    for (const [key, value] of Object.entries(store.all())) {
      if (key === 'oauth') {
        rows.push({ key: 'login', value: 'stored (use `creators auth status`)' });
        continue;
      }
      if (value && typeof value === 'object') continue;
      const text = String(value);
      rows.push({ key, value: shownSetting(key, text) });
    }
    const output = await ctx.output();
    await printList(ctx.term, output, rows, [
      { path: 'key', header: 'Key' },
      { path: 'value', header: 'Value' },
    ]);
    if (rows.length === 0) ctx.term.notice(`Profile '${ctx.profileName}' has no settings.`);
  },
});
