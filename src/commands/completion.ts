import { defineCommand } from '../app/command.js';
import { UsageError } from '../lib/errors.js';
import { matchChoice } from '../lib/options.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** `creators completion bash|zsh|fish`: a script generated from the command tree itself. */
export default defineCommand({
  name: 'completion',
  description: 'Print a shell completion script for bash, zsh or fish',
  args: [{ name: '<shell>', description: 'bash, zsh or fish', complete: SHELLS }],
  examples: [
    ['source <(creators completion bash)', 'bash, this shell only'],
    [
      'mkdir -p ~/.zfunc && creators completion zsh > ~/.zfunc/_creators',
      'zsh, with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc',
    ],
    ['creators completion fish > ~/.config/fish/completions/creators.fish', 'fish'],
  ],
  helpAfter:
    '\nCompletes subcommands, options, and values: platforms, modes, formats, kinds, help topics, config keys, and\n' +
    'file names for file options and arguments. Print the script again after an upgrade.\n',
  async run(ctx, { args: [shell = ''], command }) {
    const [{ bashScript, fishScript, zshScript, completionTree }, { printText }] = await Promise.all([
      import('../app/completion.js'),
      import('../lib/output/index.js'),
    ]);
    const scripts: Record<(typeof SHELLS)[number], typeof bashScript> = {
      bash: bashScript,
      zsh: zshScript,
      fish: fishScript,
    };
    const known = matchChoice(shell, SHELLS);
    if (!known) throw new UsageError(`Unsupported shell '${shell}'.`, { hint: 'Use bash, zsh or fish.' });
    // `completion` is a top-level verb: its parent is the whole tree.
    await printText(ctx.term, await ctx.output(), scripts[known](await completionTree(command.parent ?? command)));
  },
});
