import { defineCommand } from '../app/command.js';

/** `creators credits`: the balance, free. */
export default defineCommand({
  name: 'credits',
  description: 'Show the credit balance (GET /public/v1/accounts/credits/, free)',
  examples: [
    ['creators credits', 'balance as a table on a terminal'],
    ['creators credits --json', 'machine-readable'],
    ["creators credits --json | jq '.credits_available'", 'just the number'],
  ],
  async run(ctx) {
    const [{ creditsPlan, getCredits }, { printItem }] = await Promise.all([
      import('../lib/api/account.js'),
      import('../lib/output/index.js'),
    ]);
    const output = await ctx.output();
    if (!(await ctx.money.gate(creditsPlan()))) return;
    const credits = await getCredits(await ctx.http());
    await printItem(ctx.term, output, credits, [
      { path: 'credits_available', header: 'Credits available', kind: 'number' },
      { path: 'credits_used', header: 'Credits used', kind: 'number' },
    ]);
  },
});
