import { credits, defineCommand } from '../app/command.js';

/** `creators mcp`: the service served to AI assistants over MCP (stdio), through the CLI's own plans, gate and store. */
export default defineCommand({
  name: 'mcp',
  description: 'Serve the API to AI assistants: a Model Context Protocol server over stdio, with a session budget and the purchase store',
  flags: {
    budget: {
      flags: '--budget <credits>',
      description: 'credits this session may spend, worst cases counted before sending (default 5)',
      value: credits,
    },
    readOnly: { flags: '--read-only', description: 'serve only the free tools that change nothing (no tool can spend or write)' },
  },
  examples: [
    ['creators mcp', 'serve over stdio, up to 5 credits a session (an MCP client starts it, as below)'],
    ['creators mcp --budget 20', 'allow 20 credits a session'],
    ['creators mcp --read-only', 'free reads only: nothing can be bought or changed'],
    ['creators --profile team mcp', "the team profile's key, store and budgets"],
  ],
  helpAfter:
    '\nSet-up (the client starts the server; credentials as for any command: CREATORS_API_KEY or creators login):\n' +
    '  Claude Code:     claude mcp add creators -- npx -y creators-cli mcp\n' +
    '  VS Code:         code --add-mcp \'{"name":"creators","command":"npx","args":["-y","creators-cli","mcp"]}\'\n' +
    '  Claude Desktop:  in claude_desktop_config.json, and Cursor: in .cursor/mcp.json:\n' +
    '    {"mcpServers": {"creators": {"command": "npx", "args": ["-y", "creators-cli", "mcp"]}}}\n' +
    '\nEvery paid tool goes through the plans, money gate, budgets and store of the CLI: a stored answer costs 0;\n' +
    'a call above the session budget is refused with what was spent; one above confirm-above asks the user.\n' +
    'stdout carries only protocol messages; diagnostics go to stderr.\n',
  async run(ctx, { flags }) {
    // The SDK loads only here (its own chunk); main() runs each tool's command in this process.
    const [{ serveMcp }, { main }] = await Promise.all([import('../app/mcp/server.js'), import('../main.js')]);
    await serveMcp(ctx, { budgetMilli: flags.budget, readOnly: flags.readOnly }, main);
  },
});
