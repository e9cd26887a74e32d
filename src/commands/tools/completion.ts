import type { Command } from 'commander';
import type { Context } from '../../app/context.js';
import { UsageError } from '../../lib/errors.js';
import { bashScript, fishScript, zshScript, type CompletionTree } from '../../lib/completion.js';

/** `creators completion bash|zsh|fish`: a script generated from the command tree itself. */
export async function run(ctx: Context, [shell = '']: string[], _opts: Record<string, unknown>, command: Command): Promise<void> {
  const root = command.parent ?? command;
  const tree = toTree(root);
  const scripts: Record<string, (t: CompletionTree) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };
  const make = scripts[shell];
  if (!make) throw new UsageError(`Unsupported shell '${shell}'.`, { hint: 'Use bash, zsh or fish.' });
  ctx.io.stdout.write(make(tree));
}

function toTree(cmd: Command): CompletionTree {
  return {
    name: cmd.name(),
    description: cmd.description().split('\n')[0] ?? '',
    options: cmd.options.filter((o) => !o.hidden).map((o) => ({ flags: [o.long, o.short].filter((f): f is string => Boolean(f)), description: o.description, takesValue: o.required || o.optional })),
    commands: cmd.commands.map(toTree),
  };
}
