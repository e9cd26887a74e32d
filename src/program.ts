import { readFileSync } from 'node:fs';
import { Argument, Command, Help, InvalidArgumentError, Option } from 'commander';
import {
  apiKeyText,
  credits,
  duration,
  fieldPaths,
  type CommandDef,
  type CommandNode,
  type FlagDef,
  type FlagDefs,
  type GroupDef,
  type ValueKind,
} from './app/command.js';
import type { Deps } from './app/deps.js';
import { type Context, createContext } from './app/context.js';
import type { GlobalOptions } from './app/global-options.js';
import { COMMAND_TREE } from './commands/index.js';
import { examples, helpParagraphs, helpWidth } from './app/help-text.js';
import { completeWith } from './lib/completion-values.js';
import { InterruptedError, UsageError } from './lib/errors.js';
import { matchChoice, parseRetries, parseTimeoutSeconds } from './lib/options.js';
import { FORMATS } from './lib/output/types.js';

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** What a verb is called with once its command line is read: values typed and checked, nothing run yet. */
export interface ParsedVerb {
  /** The words typed to reach it (`enrich handle`). */
  command: string;
  args: string[];
  flags: Record<string, unknown>;
  globals: GlobalOptions;
}

export interface ProgramOptions {
  /**
   * Called instead of the verb (as gh's `runF`): a test of flag parsing sees what the verb would be
   * given, without a Context, a store or an HTTP double.
   */
  run?: (verb: ParsedVerb) => Promise<void> | void;
  /** Given each verb's Context as it is made (`creators mcp` reads what its run spent). */
  onContext?: (ctx: Context) => void;
}

/**
 * The commander tree, built from the command definitions (src/commands/index.ts). Verbs import their
 * heavy modules inside `run`, so building the tree (and `--help`) loads commander and the light
 * declarations only. Given the command line, only the part of the tree it runs is built (`treeFor`).
 */
export function buildProgram(deps: Deps, argv?: readonly string[], options: ProgramOptions = {}): Command {
  const program = new Command('creators');
  program
    .description(
      'Command-line client for the Creator Discovery, Enrichment and Monitoring API.\n' +
        'Search and enrich social-media creators, export CSVs, and watch credits, from a terminal, a script or CI.',
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // `creators help` is a command of its own (topics as well as command paths).
    .helpCommand(false)
    .addOption(new Option('--base-url <url>', 'API origin (env CREATORS_BASE_URL)'))
    .addOption(
      new Option(
        '--api-key <key>',
        'bearer credential (env CREATORS_API_KEY); other users see it in ps: prefer the env or --api-key-file',
      ),
    )
    .addOption(
      completeWith(
        new Option(
          '--api-key-file <path|->',
          'read the bearer credential from a file, or stdin for - (not visible in ps)',
        ),
        { values: 'files' },
      ),
    )
    .addOption(new Option('--profile <name>', 'named set of settings and credentials (env CREATORS_PROFILE)'))
    .addOption(
      completeWith(new Option('--format <fmt>', 'output format: table, json, jsonl, csv, tsv (env CREATORS_FORMAT)'), {
        values: FORMATS,
      }),
    )
    .option('--json', 'same as --format json')
    .option('--fields <paths>', 'columns to keep, in order, as dot paths (e.g. profile.username,user_id)')
    .option('-o, --output <file>', 'write data to a file atomically; format from the extension')
    .option('--quiet', 'no spinners, progress or notices')
    .option('--csv-safe', "csv/tsv: prefix cells starting with = + - @ tab or CR with ' (spreadsheets)")
    .option('--no-csv-safe', 'csv/tsv: write cells exactly, whatever the profile setting csv-safe says')
    .option('--bom', 'csv/tsv: start with a UTF-8 byte order mark (Excel)')
    .option('--no-bom', 'csv/tsv: no byte order mark, whatever the profile setting bom says')
    .option('--no-color', 'no ANSI colour (also NO_COLOR)')
    .option('--no-pager', 'do not page long output on a terminal (env CREATORS_PAGER, PAGER)')
    .option('--debug', 'log HTTP traffic to stderr, secrets redacted (env CREATORS_DEBUG=1)')
    .option('--timeout <s>', 'per-request timeout in seconds (default 30)')
    .option('--retries <n>', 'retry budget for safe requests (default 3)')
    .option('--dry-run', 'print what would be sent and its worst-case cost; send nothing')
    .addOption(
      new Option('--max-credits <n>', 'refuse to start when the worst-case cost exceeds n (env CREATORS_MAX_CREDITS)'),
    )
    .addOption(
      new Option(
        '--max-age <duration>',
        'reuse answers from the store bought within this window: 14d, 24h, 0 buys fresh (env CREATORS_MAX_AGE)',
      ),
    )
    .option('--no-store', 'neither take answers from the store nor keep them (may pay again)')
    .option('-y, --yes', 'answer yes to confirmations')
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      showGlobalOptions: false,
      minWidthToWrap: 16,
      formatItem: narrowFormatItem,
    })
    .addHelpText(
      'after',
      ({ command }) =>
        examples(
          [
            ['creators credits', 'show the credit balance'],
            ['creators dict languages --search port', 'look up filter values'],
            ['creators sandbox', 'run the local sandbox API (no account needed)'],
            ['creators api accounts/credits', 'call any endpoint'],
            ['creators help exit-codes', 'what each exit status means'],
          ],
          helpWidth(command),
        ) + helpTopicsLine(helpWidth(command)),
    );

  for (const node of argv === undefined ? COMMAND_TREE : treeFor(argv)) addNode(program, node, deps, options);
  return program;
}

/**
 * Verbs that read the command tree itself (the help texts, the completion scripts) or run other verbs (the MCP
 * server's tools): always the whole tree.
 */
const READS_THE_TREE = new Set(['help', 'completion', 'mcp']);

/**
 * The part of the tree a command line runs: when it starts with a verb's words (`credits`, `keys list`),
 * that verb alone under its group, without the ~100 other verbs commander would otherwise build (their
 * options, arguments and help hooks: ~5 ms of every run, a twentieth of a one-request command). Anything
 * else gets the whole tree, so commander's messages are unchanged: a global option before the verb, an
 * unknown or misspelt word (the suggestions need the siblings), a group without its verb, a help request
 * (a group's help lists its verbs), and the verbs that read the tree.
 */
export function treeFor(argv: readonly string[]): readonly CommandNode[] {
  if (argv.includes('--help') || argv.includes('-h')) return COMMAND_TREE;
  const named = (nodes: readonly CommandNode[], word: string | undefined): CommandNode | undefined =>
    nodes.find((n) => n.def.name === word || (n.def.aliases ?? []).includes(word ?? ''));
  const slice = (nodes: readonly CommandNode[], depth: number): CommandNode | undefined => {
    const node = named(nodes, argv[depth]);
    if (node === undefined) return undefined;
    if (node.kind === 'command') return READS_THE_TREE.has(node.def.name) ? undefined : node;
    const child = slice(node.def.commands, depth + 1);
    return child === undefined ? undefined : { kind: 'group', def: { ...node.def, commands: [child] } };
  };
  const node = slice(COMMAND_TREE, 0);
  return node === undefined ? COMMAND_TREE : [node];
}

/**
 * A help entry (option, command, argument): commander's `term  description` when the description column
 * has room, else (a narrow terminal, a long term) the description wrapped on its own lines under the term,
 * instead of one unwrapped line the terminal would break anywhere.
 */
function narrowFormatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  if (!description || width - termWidth - 4 >= 30)
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  return `  ${term}\n${helper.boxWrap(description, width - 6).replace(/^/gm, '      ')}`;
}

/** The last line of `creators --help`, on two lines when the terminal is too narrow for one. */
function helpTopicsLine(width: number): string {
  const line = 'Help topics: exit-codes, environment, formatting (creators help <topic>).';
  return line.length <= width ? `\n${line}\n` : `\n${line.replace(' (', '\n(')}\n`;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Positional values as verbs receive them: in order, variadic ones spread, absent optional ones left out. */
function positionalValues(actionArgs: unknown[]): string[] {
  return actionArgs
    .slice(0, -2)
    .flatMap((a) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
}

/**
 * A flag's value as its declaration types it: a list, a value (or undefined), or a switch (false when
 * absent); a value of a kind (`FlagDef.value`) parsed, a usage error naming the flag when it is not one.
 */
function flagValue(flag: FlagDef, raw: unknown, name: string): unknown {
  const parse = (text: unknown): unknown => (flag.value === undefined ? text : flag.value.parse(String(text), name));
  if (flag.repeat) return ((raw as string[] | undefined) ?? []).map(parse);
  if (flag.flags.includes('<') || flag.negatable)
    return raw === undefined || typeof raw === 'boolean' ? raw : parse(raw);
  return Boolean(raw);
}

/**
 * How the global options that are not text are read (the profile's settings for them are read the same
 * way by the Context). An empty `--max-credits` or `--max-age` is null: none, whatever the env says.
 */
const GLOBAL_VALUES: { [K in keyof GlobalOptions]?: ValueKind<GlobalOptions[K]> } = {
  timeout: { parse: parseTimeoutSeconds },
  retries: { parse: parseRetries },
  maxCredits: { parse: (raw, flag) => (raw === '' ? null : credits.parse(raw, flag)) },
  maxAge: { parse: (raw, flag) => (raw.trim() === '' ? null : duration.parse(raw, flag)) },
  apiKey: apiKeyText,
  fields: fieldPaths,
};

/** The global options with their numbers read (`GLOBAL_VALUES`), each once, before any verb runs. */
function globalValues(raw: Record<string, unknown>): GlobalOptions {
  const globals: Record<string, unknown> = { ...raw };
  for (const [key, kind] of Object.entries(GLOBAL_VALUES)) {
    if (typeof raw[key] === 'string')
      globals[key] = kind?.parse(raw[key], `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }
  return globals as GlobalOptions;
}

/**
 * Standard input can be read once: `--api-key-file -` beside a value of `-` that reads it too (`--input -`,
 * `--file -`, `batch upload -`...) would leave one of them empty. Refused as a usage error naming both,
 * before anything is read or sent. (Two readers of one verb, such as `--filters -` with
 * `--exclude-handles -`, are the verb's own check.)
 */
function refuseTwoStdinReaders(
  def: CommandDef<FlagDefs>,
  globals: GlobalOptions,
  values: Record<string, unknown>,
  positionals: unknown[],
): void {
  if (globals.apiKeyFile !== '-') return;
  const readers: string[] = ['--api-key-file -'];
  const isDash = (value: unknown): boolean => value === '-' || (Array.isArray(value) && value.includes('-'));
  for (const [key, flag] of Object.entries(def.flags ?? {})) {
    if (flag.stdin && isDash(values[key])) readers.push(`${new Option(flag.flags, '').long ?? key} -`);
  }
  (def.args ?? []).forEach((arg, i) => {
    if (arg.stdin && isDash(positionals[i])) readers.push(`${arg.name} -`);
  });
  if (readers.length < 2) return;
  throw new UsageError(
    `${readers.slice(0, -1).join(', ')} and ${readers[readers.length - 1]} both read standard input, which can be read only once.`,
    {
      hint: 'Give the key another way: --api-key-file <file>, CREATORS_API_KEY, or creators login.',
    },
  );
}

/** A group's or verb's Examples block and the text after it, fitted to the help width when shown. */
function addHelpAfter(cmd: Command, def: Pick<GroupDef, 'examples' | 'helpAfter'>): void {
  const { examples: list, helpAfter } = def;
  if (!list && !helpAfter) return;
  cmd.addHelpText(
    'after',
    ({ command }) =>
      (list ? examples(list, helpWidth(command)) : '') + helpParagraphs(helpAfter ?? '', helpWidth(command)),
  );
}

/** Adds a declared verb or group (and its verbs) under `parent`. */
function addNode(parent: Command, node: CommandNode, deps: Deps, options: ProgramOptions): void {
  if (node.kind === 'group') {
    addGroup(parent, node.def, deps, options);
    return;
  }
  addVerb(parent, node.def, deps, options);
}

function addGroup(parent: Command, def: GroupDef, deps: Deps, options: ProgramOptions): void {
  // `creators <group> help [verb]` prints that help (as gh does), but is not listed in the group's help:
  // `creators help <command...>` is the one shown. Commander's help command is kept out of the tree's
  // commands (completion, the build's help snapshots), and made hidden by creating it through `command()`.
  const help = new Command()
    .command('help [command]', { hidden: true })
    .description('show help for a command')
    .helpOption(false);
  const group = parent.command(def.name).description(def.description).addHelpCommand(help);
  for (const alias of def.aliases ?? []) group.alias(alias);
  addHelpAfter(group, def);
  for (const child of def.commands) addNode(group, child, deps, options);
}

function addVerb(parent: Command, def: CommandDef<FlagDefs>, deps: Deps, options: ProgramOptions): void {
  const cmd = parent.command(def.name).description(def.description);
  for (const alias of def.aliases ?? []) cmd.alias(alias);
  for (const arg of def.args ?? [])
    cmd.addArgument(completeWith(new Argument(arg.name, arg.description), { values: arg.complete }));
  const flags = def.flags ?? {};
  for (const [key, flag] of Object.entries(flags)) {
    const option = new Option(flag.flags, flag.description);
    if (flag.repeat) option.argParser(collect);
    if (flag.default !== undefined) option.default(flag.default);
    if (flag.choices) {
      // Listed for help and completion; matched by the one rule for case in choices (lib/options.ts).
      const choices = flag.choices;
      option.choices(choices);
      if (!flag.repeat) {
        option.argParser((value: string) => {
          const found = matchChoice(value, choices);
          if (found === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
          return found;
        });
      }
    }
    if (flag.hidden) option.hideHelp();
    completeWith(option, { values: flag.complete, repeat: flag.repeat });
    // The key a verb reads must be the one commander stores the value under.
    if (option.attributeName() !== key)
      throw new Error(
        `creators ${def.name}: flag ${flag.flags} is stored as '${option.attributeName()}', declared as '${key}'`,
      );
    cmd.addOption(option);
    if (flag.negatable) cmd.addOption(new Option(`--no-${option.name()}`, `no ${option.name()}`).hideHelp());
  }
  addHelpAfter(cmd, def);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const raw = command.opts();
    const values = Object.fromEntries(
      Object.entries(flags).map(([key, flag]) => [
        key,
        flagValue(flag, raw[key], command.options.find((o) => o.attributeName() === key)?.long ?? key),
      ]),
    );
    const globals = globalValues(command.optsWithGlobals());
    refuseTwoStdinReaders(def, globals, values, actionArgs.slice(0, -2));
    if (options.run) {
      await options.run({ command: commandPath(command), args: positionalValues(actionArgs), flags: values, globals });
      return;
    }
    const ctx = createContext(deps, globals);
    ctx.config.checkProfile();
    ctx.command = commandPath(command);
    options.onContext?.(ctx);
    try {
      await def.run(ctx, { args: positionalValues(actionArgs), flags: values as never, command });
      await ctx.store.finish();
      // Every paid run's summary warns when the balance covers few days of monitoring (one place for all).
      await ctx.money.runwaySummary();
      // Ctrl-C came while a request already sent was finishing: its result is out, but the run was
      // stopped, and a script under `set -e` must not carry on as if it had completed (exit 130).
      if (deps.signal?.aborted && !def.endsOnCtrlC) {
        throw new InterruptedError(
          'Interrupted. What was already sent was finished and its result printed; nothing else was started.',
        );
      }
    } finally {
      // No wait spinner outlives the command (an error is printed next, possibly with requests still out).
      ctx.term.closeLive();
      await ctx.store.close();
    }
  });
}

/** `enrich handle`: the words typed to reach a command, without the program's name. */
function commandPath(command: Command): string {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}
