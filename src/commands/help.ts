import { defineCommand } from '../app/command.js';
import { UsageError } from '../lib/errors.js';

/** `creators help [topic | command...]`: a topic page, or the help of a command path. */
export default defineCommand({
  name: 'help',
  description: 'Show help for a command, or a topic: exit-codes, environment, formatting, filters',
  args: [
    {
      name: '[topic...]',
      description: 'a topic or a command path',
      // Topics, then the commands whose help it shows.
      complete: async ({ commands }) => [...Object.keys((await import('./help-topics.js')).HELP_TOPICS), ...commands],
    },
  ],
  examples: [
    ['creators help exit-codes', 'what each exit status means'],
    ['creators help environment', 'environment variables'],
    ['creators help dict', 'help of a command'],
  ],
  async run(ctx, { args, command }) {
    const [{ HELP_TOPICS }, { printText }] = await Promise.all([
      import('./help-topics.js'),
      import('../lib/output/index.js'),
    ]);
    const topic = args.join(' ').trim();
    // `help` is a top-level verb: its parent is the whole tree.
    const root = command.parent ?? command;
    if (!topic) {
      await printText(ctx.term, await ctx.output(), root.helpInformation());
      return;
    }
    const text = Object.hasOwn(HELP_TOPICS, topic) ? HELP_TOPICS[topic] : undefined;
    if (text) {
      await printText(ctx.term, await ctx.output(), text);
      return;
    }
    let target: typeof root | undefined = root;
    for (const name of args) {
      target = target?.commands.find((c) => c.name() === name || c.aliases().includes(name));
    }
    if (!target) {
      throw new UsageError(`No help topic or command '${topic}'.`, {
        hint: `Topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: see 'creators --help'.`,
      });
    }
    await printText(ctx.term, await ctx.output(), target.helpInformation());
  },
});
