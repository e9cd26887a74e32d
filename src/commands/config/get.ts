import { defineCommand } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/** `creators config get <key>`: prints the value; exit 2 when it is not set. */
export default defineCommand({
  name: 'get',
  description:
    "Print one setting of the profile (secrets masked and a store URL's password hidden unless --show-secret)",
  args: [
    {
      name: '<key>',
      description: 'setting name',
      complete: async () => Object.keys((await import('../../lib/config.js')).CONFIG_KEYS),
    },
  ],
  flags: {
    showSecret: { flags: '--show-secret', description: "print a secret value (or a store URL's password) in full" },
  },
  examples: [['creators config get base-url', 'the stored base URL']],
  async run(ctx, { args: [key = ''], flags }) {
    const [{ CONFIG_KEYS, shownSetting, validateConfigValue }, { printText }] = await Promise.all([
      import('../../lib/config.js'),
      import('../../lib/output/index.js'),
    ]);
    if (!CONFIG_KEYS[key]) validateConfigValue(key, '');
    const value = (await ctx.config.store()).get(key);
    if (value === undefined) throw new UsageError(`'${key}' is not set in profile '${ctx.profileName}'.`);
    const text = String(value);
    await printText(ctx.term, await ctx.output(), `${shownSetting(key, text, Boolean(flags.showSecret))}\n`);
  },
});
