import { defineCommand } from '../../app/command.js';

/** `creators apps list`: connected OAuth apps; fields passed through as the server sends them. */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List the apps authorized to act for the account',
  examples: [
    ['creators apps list', 'table'],
    ['creators apps list --json', 'for scripts'],
  ],
  async run(ctx) {
    const [{ listApps }, { printList }] = await Promise.all([
      import('../../lib/api/apps.js'),
      import('../../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    const apps = await listApps(await ctx.http());
    const count = await printList(ctx.term, output, apps, [
      { path: 'id', header: 'ID', kind: 'number', keep: true },
      { path: 'client_name', header: 'App' },
      { path: 'client_id', header: 'Client ID', keep: true },
      { path: 'scope', header: 'Scope' },
      { path: 'created_at', header: 'Authorized', kind: 'date' },
      { path: 'last_used_at', header: 'Last used', kind: 'date' },
    ]);
    if (count === 0 && output.format === 'table') ctx.term.notice('No connected apps.');
  },
});
