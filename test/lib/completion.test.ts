/** The completion tree reads values from the declarations: commander choices, `complete`, `<file...>` names. */
import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { completeWith } from '../../src/lib/completion-values.js';
import { bashScript, completionTree, fishScript, zshScript } from '../../src/app/completion.js';

function tree(): Command {
  const root = new Command('tool').addOption(new Option('--format <fmt>').choices(['a', 'b']));
  const leaf = root.command('run');
  leaf.addOption(completeWith(new Option('--color <c>'), { values: ['red', 'blue'] }));
  leaf.addOption(completeWith(new Option('--topic <t>'), { values: async () => ['later'] }));
  leaf.addOption(new Option('--input <file|->'));
  leaf.addOption(new Option('--name <name>'));
  leaf.addArgument(new Argument('<file>'));
  leaf.addArgument(completeWith(new Argument('[rest...]'), { values: 'files' }));
  return root;
}

describe('completionTree', () => {
  it('takes values from choices, declared words, lazy words and file names', async () => {
    const t = await completionTree(tree());
    expect(t.options[0]?.values).toEqual({ words: ['a', 'b'], files: false });
    const run = t.commands[0];
    const values = Object.fromEntries((run?.options ?? []).map((o) => [o.flags[0], o.values]));
    expect(values['--color']).toEqual({ words: ['red', 'blue'], files: false });
    expect(values['--topic']).toEqual({ words: ['later'], files: false });
    expect(values['--input']).toEqual({ words: [], files: true });
    expect(values['--name']).toEqual({ words: [], files: false });
    expect(run?.args.map((a) => [a.name, a.variadic, a.values.files])).toEqual([
      ['file', false, true],
      ['rest', true, true],
    ]);
  });

  it('puts a new value into every script without touching the generators', async () => {
    const t = await completionTree(tree());
    for (const script of [bashScript(t), zshScript(t), fishScript(t)]) {
      expect(script).toContain('red blue');
      expect(script).toContain('later');
    }
  });
});
