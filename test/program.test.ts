import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { buildProgram, treeFor } from '../src/program.js';
import { COMMAND_TREE } from '../src/commands/index.js';
import type { CommandNode } from '../src/app/command.js';
import { helpBlocks, readmeBlocks } from './helpers/examples.js';
import { runCli } from './helpers/run-cli.js';

describe('the command tree', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const res = await runCli(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${pkg.version}\n`);
  });

  it('--help lists the command groups, the global options and examples', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    for (const word of ['credits', 'auth', 'dict', 'config', 'api', 'sandbox', 'completion', 'help']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${word}\\b`, 'm'));
    }
    for (const flag of [
      '--base-url',
      '--api-key',
      '--profile',
      '--format',
      '--json',
      '--fields',
      '--output',
      '--quiet',
      '--no-color',
      '--debug',
      '--timeout',
      '--retries',
      '--dry-run',
      '--max-credits',
      '--yes',
    ]) {
      expect(res.stdout).toContain(flag);
    }
    expect(res.stdout).toContain('Examples:');
  });

  it('every command of the tree has its own help: usage, description, options and examples that run it', async () => {
    const root = buildProgram({ io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} });
    const all: Command[] = [];
    const walk = (cmd: Command): void => {
      for (const sub of cmd.commands) {
        all.push(sub);
        walk(sub);
      }
    };
    walk(root);
    expect(all.length).toBeGreaterThan(60);
    for (const cmd of all) {
      const path: string[] = [];
      for (let c: Command | null = cmd; c && c !== root; c = c.parent) path.unshift(c.name());
      const name = path.join(' ');
      const res = await runCli([...path, '--help']);
      expect(res.code, name).toBe(0);
      const lines = res.stdout.split('\n');
      expect(lines[0], name).toMatch(new RegExp(`^Usage: creators ${name}\\b`));
      // The description is the command's own (first line of it), not an empty or borrowed one.
      expect(cmd.description().length, name).toBeGreaterThan(10);
      expect((lines[2] ?? '').length, name).toBeGreaterThan(10);
      expect(
        cmd
          .description()
          .replace(/\s+/g, ' ')
          .startsWith((lines[2] ?? '').trim()),
        name,
      ).toBe(true);
      if (cmd.commands.length > 0) {
        // A group lists each of its verbs.
        for (const sub of cmd.commands)
          expect(res.stdout, `${name} lists ${sub.name()}`).toMatch(new RegExp(`^  ${sub.name()}\\b`, 'm'));
        // ...and not commander's `help [command]`, which `creators help <command...>` does already.
        expect(res.stdout, `${name} lists no help [command]`).not.toMatch(/^  help\b/m);
      } else {
        for (const option of cmd.options.filter((o) => !o.hidden))
          expect(res.stdout, `${name} documents ${option.flags}`).toContain(option.flags);
      }
      // Examples show this very command (by its name or an alias) being run.
      const examples = res.stdout.slice(res.stdout.indexOf('Examples:'));
      expect(res.stdout.includes('Examples:'), `${name} has examples`).toBe(true);
      const names = [cmd.name(), ...cmd.aliases()].join('|');
      expect(examples, `${name}: an example runs it`).toMatch(new RegExp(`creators (\\S+ )*(${names})\\b`));
    }
  });

  it('an unknown command is a usage error (exit 2) with a one-line message', async () => {
    const res = await runCli(['serch']);
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toMatch(/^error: unknown command 'serch'/);
  });

  it('an unknown option is a usage error (exit 2)', async () => {
    const res = await runCli(['credits', '--bogus']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: unknown option '--bogus'/);
  });

  it('an unknown --format is a usage error (exit 2)', async () => {
    const res = await runCli(['credits', '--format', 'xml'], {
      env: { CREATORS_API_KEY: 'k', CREATORS_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Unknown format 'xml'\.\nUse one of: table, json, jsonl, csv, tsv\.\n$/);
  });
});

describe('usage errors point to the help of the command that failed', () => {
  it.each([
    [
      ['enrich', 'handle', 'x', '--modee', 'full'],
      "unknown option '--modee'",
      "Did you mean --mode? See 'creators enrich handle --help'.",
    ],
    [
      ['enrich', 'handle', 'x', '--mode', 'bogus'],
      "option '--mode <mode>' argument 'bogus' is invalid",
      "See 'creators enrich handle --help'.",
    ],
    [['similar'], "missing required argument 'creator'", "See 'creators similar --help'."],
    [
      ['listening', 'subscriptions', 'get'],
      'missing required argument',
      "See 'creators listening subscriptions get --help'.",
    ],
    [['enrich', 'hanle'], "unknown command 'hanle'", "Did you mean handle? See 'creators enrich --help'."],
    [['enrich', 'bogus'], "unknown command 'bogus'", "See 'creators enrich --help'."],
    [['serch'], "unknown command 'serch'", "Did you mean search? See 'creators --help'."],
    // A verb and its alias are one suggestion (was: "Did you mean one of list, ls?").
    [['keys', 'lst'], "unknown command 'lst'", "Did you mean list? See 'creators keys --help'."],
    [['--bogus'], "unknown option '--bogus'", "See 'creators --help'."],
  ])('%j: exit 2, one line and the pointer', async (argv, message, hint) => {
    const res = await runCli(argv);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const [first, second, ...rest] = res.stderr.split('\n');
    expect(first).toContain(`error: ${message}`);
    expect(second).toBe(hint);
    expect(rest.join('')).toBe('');
  });

  it('an alias points to the command by its name', async () => {
    const res = await runCli(['keys', 'ls', '--bogus']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("See 'creators keys list --help'.");
  });

  it('in json mode the error is one JSON object whose hint has the pointer', async () => {
    const res = await runCli(['enrich', 'handle', 'x', '--modee', 'full', '--json']);
    expect(res.code).toBe(2);
    expect(res.errorJson().error).toMatchObject({
      code: 'usage',
      message: "unknown option '--modee'",
      hint: "Did you mean --mode? See 'creators enrich handle --help'.",
    });
  });
});

describe('a bare group prints its help on stdout', () => {
  it.each([[[]], [['enrich']], [['batch']], [['listening', 'subscriptions']], [['keys']]])(
    '%j: help on stdout, nothing on stderr, exit 0',
    async (argv) => {
      const res = await runCli(argv);
      expect(res.code).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout.startsWith(['Usage: creators', ...argv].join(' '))).toBe(true);
      expect(res.stdout).toContain('Commands:');
      // The same text as --help.
      expect(res.stdout).toBe((await runCli([...argv, '--help'])).stdout);
    },
  );

  it('no example (help or README) teaches a flag kept only for compatibility', async () => {
    const compat: [verb: string, flag: string][] = [];
    const walk = (node: CommandNode, path: string[]): void => {
      const here = [...path, node.def.name];
      if (node.kind === 'group') for (const child of node.def.commands) walk(child, here);
      else
        for (const flag of Object.values(node.def.flags ?? {}))
          if (/^accepted for compatibility/.test(flag.description))
            compat.push([`creators ${here.join(' ')} `, flag.flags.split(/[ ,]/)[0] ?? '']);
    };
    for (const node of COMMAND_TREE) walk(node, []);
    expect(compat.length).toBeGreaterThan(0);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const steps = [...helpBlocks(COMMAND_TREE), ...readmeBlocks(readme)].flatMap((block) =>
      block.steps.map((step) => `${block.where}: ${step.command}`),
    );
    for (const [verb, flag] of compat)
      expect(steps.filter((line) => line.includes(verb) && line.split(/\s+/).includes(flag))).toEqual([]);
  });

  it('every --help fits a 60-column terminal: options wrapped, each example comment above its command', async () => {
    const root = buildProgram({ io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} });
    const paths: string[][] = [[]];
    const walk = (cmd: Command, path: string[]): void => {
      for (const sub of cmd.commands) {
        paths.push([...path, sub.name()]);
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(root, []);
    for (const path of paths) {
      const res = await runCli([...path, '--help'], { tty: true, columns: 60 });
      expect(res.code).toBe(0);
      // A command line (an example, the usage) or a single long word (a path) is never broken; the rest fits.
      const long = res.stdout
        .split('\n')
        .filter(
          (line) =>
            [...line].length > 60 &&
            !line.startsWith('  $ ') &&
            !line.startsWith('Usage: ') &&
            /\S\s+\S/.test(line.trim()),
        );
      expect(long, `creators ${path.join(' ')} --help`).toEqual([]);
    }
    const search = (await runCli(['search', '--help'], { tty: true, columns: 60 })).stdout;
    expect(search).toContain(
      '  # a page of 20 creators\n  $ creators search --platform instagram --min-followers 10000 --filter location=Germany\n',
    );
    // Where the examples fit, they stay one line each.
    const wide = (await runCli(['search', '--help'], { tty: true, columns: 200 })).stdout;
    expect(wide).toMatch(
      /^ {2}\$ creators search --platform instagram --min-followers 10000 --filter location=Germany +# a page of 20 creators$/m,
    );
  });

  it('is wrapped to the terminal width like --help', async () => {
    const res = await runCli(['enrich'], { tty: true, columns: 160 });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe((await runCli(['enrich', '--help'], { tty: true, columns: 160 })).stdout);
  });
});

describe('conflicting format flags', () => {
  it('--json with another --format is a usage error (exit 2)', async () => {
    const res = await runCli(['config', 'list', '--json', '--format', 'csv']);
    expect(res.code).toBe(2);
    // --json asked for JSON, so the error itself comes as JSON.
    expect(res.errorJson().error).toMatchObject({
      code: 'usage',
      message: '--json and --format csv ask for two formats.',
    });
  });

  it('--fields naming no field is a usage error (exit 2)', async () => {
    const res = await runCli(['config', 'list', '--fields', ' , ']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: --fields needs at least one field name, e.g. --fields profile.username,user_id\n');
  });
});

describe('the part of the tree a command line runs', () => {
  const deps = { io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} };
  const names = (cmd: Command): string[] => cmd.commands.map((c) => c.name());
  /** Every verb of a tree with its words, options (flags and defaults) and arguments, as commander holds them. */
  const verbs = (root: Command): Map<string, string> => {
    const found = new Map<string, string>();
    const walk = (cmd: Command, path: string[]): void => {
      if (cmd.commands.length === 0 && path.length > 0) {
        const shape = {
          options: cmd.options.map((o) => [o.flags, o.defaultValue, o.argChoices, o.hidden]),
          args: cmd.registeredArguments.map((a) => [a.name(), a.required, a.variadic]),
          aliases: cmd.aliases(),
          description: cmd.description(),
          parents: (() => {
            const up: unknown[] = [];
            for (let c = cmd.parent; c; c = c.parent) up.push([c.name(), c.options.map((o) => o.flags), c.aliases()]);
            return up;
          })(),
        };
        found.set(path.join(' '), JSON.stringify(shape));
      }
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(root, []);
    return found;
  };

  it('builds only the verb a command line starts with (under its group), the way the whole tree has it', () => {
    expect(names(buildProgram(deps, ['credits', '--json']))).toEqual(['credits']);
    const keys = buildProgram(deps, ['keys', 'list', '--json']);
    expect(names(keys)).toEqual(['keys']);
    expect(names(keys.commands[0] as Command)).toEqual(['list']);
    const whole = verbs(buildProgram(deps));
    expect(whole.size).toBeGreaterThan(60);
    for (const [path, shape] of whole) {
      const sliced = verbs(buildProgram(deps, path.split(' ')));
      // `help` and `completion` read the tree and `mcp` runs every verb: theirs is the whole one.
      expect([...sliced.keys()], path).toEqual(
        ['help', 'completion', 'mcp'].includes(path) ? [...whole.keys()] : [path],
      );
      expect(sliced.get(path), path).toBe(shape);
    }
  });

  it('finds a verb or a group by its alias', () => {
    const listening = buildProgram(deps, ['listening', 'subs', 'ls']);
    expect(names(listening)).toEqual(['listening']);
    const subs = listening.commands[0]?.commands[0] as Command;
    expect([subs.name(), ...names(subs)]).toEqual(['subscriptions', 'list']);
  });

  it('keeps the whole tree where commander needs the other commands: a global option first, a typo, a bare group, help, completion', () => {
    for (const argv of [
      [],
      ['--json', 'credits'],
      ['credit'],
      ['keys'],
      ['keys', 'lst'],
      ['credits', '--help'],
      ['keys', 'list', '-h'],
      ['help', 'credits'],
      ['completion', 'bash'],
    ]) {
      expect(treeFor(argv), argv.join(' ')).toBe(COMMAND_TREE);
    }
  });

  it('answers a sliced command line as the whole tree does: a misspelt option is still a usage error with its suggestion', async () => {
    const res = await runCli(['credits', '--jsn']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--json');
  });
});
