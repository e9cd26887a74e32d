import { credits, defineCommand } from '../app/command.js';

/** `creators mcp`: the service served to AI assistants over MCP (stdio), through the CLI's own plans, gate and store. */
export default defineCommand({
  name: 'mcp',
  description:
    'Serve the API to AI assistants: a Model Context Protocol server over stdio, with a session budget and the purchase store',
  flags: {
    budget: {
      flags: '--budget <credits>',
      description: 'credits this session may spend, worst cases counted before sending (default 5)',
      value: credits,
    },
    readOnly: {
      flags: '--read-only',
      description: 'serve only the free tools that change nothing (no tool can spend or write)',
    },
  },
  examples: [
    ['creators mcp', 'serve over stdio, up to 5 credits a session (an MCP client starts it, as below)'],
    ['creators mcp --budget 20', 'allow 20 credits a session'],
    ['creators mcp --read-only', 'free reads only: nothing can be bought or changed'],
    ['creators --profile team mcp', "the team profile's key, store and budgets"],
    ['creators mcp --read-only --dry-run', 'the tools a read-only server would serve; starts nothing'],
  ],
  helpAfter:
    '\nSet-up: the client starts the server; credentials as for any command\n' +
    '(CREATORS_API_KEY, or creators login first).\n' +
    '  Claude Code:\n' +
    '    claude mcp add creators -- npx -y creators-cli mcp\n' +
    '  Claude Desktop (claude_desktop_config.json), Cursor (.cursor/mcp.json):\n' +
    '    {"mcpServers": {"creators": {"command": "npx",\n' +
    '                                 "args": ["-y", "creators-cli", "mcp"]}}}\n' +
    '  VS Code (.vscode/mcp.json): the same under "servers" instead of "mcpServers".\n' +
    '\nEvery paid tool goes through the plans, money gate, budgets and store of the\n' +
    'CLI: a stored answer costs 0; a call above the session budget is refused with\n' +
    'what was spent; one above confirm-above asks the user (MCP elicitation).\n' +
    'stdout carries only protocol messages; diagnostics go to stderr.\n',
  async run(ctx, { flags }) {
    if (ctx.dryRun) {
      // A dry run starts nothing: it says what would be served, with which budget.
      const [{ servedTools, DEFAULT_BUDGET_CREDITS }, { printText }] = await Promise.all([
        import('../app/mcp/tools.js'),
        import('../lib/output/index.js'),
      ]);
      const output = await ctx.output();
      const plan = {
        dry_run: true,
        transport: 'stdio',
        read_only: flags.readOnly,
        budget_credits: flags.budget === undefined ? DEFAULT_BUDGET_CREDITS : flags.budget / 1000,
        tools: servedTools(flags.readOnly),
      };
      const text =
        output.format === 'json' || output.format === 'jsonl'
          ? `${JSON.stringify(plan, null, output.format === 'json' ? 2 : undefined)}\n`
          : `Dry run: no server was started.\nIt would serve ${plan.tools.length} tools over stdio with a session budget of ${plan.budget_credits} credits${flags.readOnly ? ' (read-only)' : ''}: ${plan.tools.join(', ')}.\n`;
      await printText(ctx.term, output, text);
      return;
    }
    // The SDK loads only here (its own chunk); main() runs each tool's command in this process.
    const [{ serveMcp }, { main }] = await Promise.all([import('../app/mcp/server.js'), import('../main.js')]);
    await serveMcp(ctx, { budgetMilli: flags.budget, readOnly: flags.readOnly }, main);
  },
});
