import { defineCommand } from '../../app/command.js';

/** `creators apps revoke <id>`: disconnects an app (its tokens stop working); confirmed unless `--yes`. */
export default defineCommand({
  name: 'revoke',
  description: "Revoke an app's access (asks first unless --yes)",
  args: [{ name: '<id>', description: 'app id' }],
  examples: [
    ['creators apps revoke 2', 'asks for confirmation'],
    ['creators apps revoke 2 --yes', 'in scripts'],
  ],
  async run(ctx, { args: [rawId] }) {
    const [{ positiveId }, { revokeApp, revokeAppPlan }] = await Promise.all([
      import('../../lib/ids.js'),
      import('../../lib/api/apps.js'),
    ]);
    const id = positiveId(rawId, 'app id');
    if (!(await ctx.money.gate(revokeAppPlan(id)))) return;
    if (!(await ctx.term.confirm(`Revoke app ${id}? Its tokens stop working at once.`))) {
      ctx.term.notice('Nothing revoked.');
      return;
    }
    await revokeApp(await ctx.http(), id);
    ctx.term.notice(`Revoked app ${id}.`);
  },
});
