import { defineCommand } from '../app/command.js';
import { UsageError } from '../lib/errors.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `creators completion bash|zsh|fish`: a script generated from the command tree itself. */
export default defineCommand({
  name: 'completion',
  description: 'Print a shell completion script for bash, zsh or fish',
  args: [{ name: '<shell>', description: 'bash, zsh or fish', complete: SHELLS }],
  examples: [
    ['source <(creators completion bash)', 'bash, this shell only'],
    ['creators completion zsh > "${fpath[1]}/_creators"', 'zsh'],
    ['creators completion fish > ~/.config/fish/completions/creators.fish', 'fish'],
  ],
  async run(ctx, { args: [shell = ''], command }) {
    const [{ bashScript, fishScript, zshScript, completionTree }, { printText }] = await Promise.all([
      import('../lib/completion.js'),
      import('../lib/output/index.js'),
    ]);
    const scripts: Record<(typeof SHELLS)[number], typeof bashScript> = { bash: bashScript, zsh: zshScript, fish: fishScript };
    const known = SHELLS.find((s) => s === shell);
    if (!known) throw new UsageError(`Unsupported shell '${shell}'.`, { hint: 'Use bash, zsh or fish.' });
    // `completion` is a top-level verb: its parent is the whole tree.
    await printText(ctx.io, await ctx.output(), scripts[known](await completionTree(command.parent ?? command)));
  },
});
