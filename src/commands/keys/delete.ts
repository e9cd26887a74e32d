import { defineCommand } from '../../app/command.js';

/** `creators keys delete <id>`: permanent; confirmed unless `--yes`. */
export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete an API key permanently (asks first unless --yes)',
  args: [{ name: '<id>', description: 'key id' }],
  examples: [
    ['creators keys delete 3', 'asks for confirmation'],
    ['creators keys delete 2 --yes', 'in scripts'],
  ],
  async run(ctx, { args: [rawId] }) {
    const [{ positiveId }, { deleteKey, deleteKeyPlan }] = await Promise.all([
      import('../../lib/ids.js'),
      import('../../lib/api/keys.js'),
    ]);
    const id = positiveId(rawId, 'key id');
    if (!(await ctx.money.gate(deleteKeyPlan(id)))) return;
    if (!(await ctx.term.confirm(`Delete API key ${id}? Anything using it stops working.`))) {
      ctx.term.notice('Nothing deleted.');
      return;
    }
    await deleteKey(await ctx.http(), id);
    ctx.term.notice(`Deleted API key ${id}.`);
  },
});
