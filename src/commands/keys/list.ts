import { defineCommand } from '../../app/command.js';
import { SHOW_TOKEN } from './flags.js';

/** `creators keys list`: every API key, values masked unless `--show-token`. */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List API keys, inactive ones included',
  flags: { ...SHOW_TOKEN },
  examples: [
    ['creators keys list', 'table with masked values'],
    ['creators keys list --json --show-token', 'for scripts, values in full'],
  ],
  async run(ctx, { flags }) {
    const [{ listKeys }, { KEY_COLUMNS, maskKey }, { printList }] = await Promise.all([
      import('../../lib/api/keys.js'),
      import('../../lib/auth/api-keys.js'),
      import('../../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    const keys = await listKeys(await ctx.http());
    const count = await printList(
      ctx.term,
      output,
      keys.map((k) => maskKey(k, flags.showToken)),
      KEY_COLUMNS,
    );
    if (count === 0 && output.format === 'table') ctx.term.notice('No API keys.');
  },
});
