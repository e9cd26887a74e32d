import type { Command } from 'commander';
import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { HELP_TOPICS } from './help-topics.js';

/** `creators help [topic | command...]`. */
export async function run(ctx: Context, args: string[], _opts: Record<string, unknown>, command?: Command): Promise<void> {
  const topic = args.join(' ').trim();
  const root = command?.parent;
  if (!topic) {
    ctx.io.stdout.write(root ? root.helpInformation() : '');
    return;
  }
  const text = HELP_TOPICS[topic];
  if (text) {
    ctx.io.stdout.write(text);
    return;
  }
  let target = root;
  for (const name of args) {
    target = target?.commands.find((c) => c.name() === name || c.aliases().includes(name));
  }
  if (!target) {
    throw new UsageError(`No help topic or command '${topic}'.`, {
      hint: `Topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: see 'creators --help'.`,
    });
  }
  ctx.io.stdout.write(target.helpInformation());
}
