import { CommanderError, type Command } from 'commander';
import { setMaxListeners } from 'node:events';
import { realSleep, type Deps } from './app/deps.js';
import { buildTerminal } from './app/factory/terminal.js';
import { errorFormatAsked } from './app/factory/output.js';
import {
  CliError,
  DryRunComplete,
  EXIT,
  InterruptedError,
  PagerClosedError,
  StoppedError,
  UsageError,
} from './lib/errors.js';
import { Secrets } from './lib/http/redact.js';
import { exitHoldsSettled, pendingExitHolds } from './lib/io/exit-holds.js';
import { buildProgram, type ProgramOptions } from './program.js';

/**
 * Runs the CLI for `argv` (without node and script) and returns the exit code.
 * This is the one place where typed errors become exit codes and printed messages.
 */
export async function main(argv: string[], given: Deps, options: ProgramOptions = {}): Promise<number> {
  // One set of known credentials for the whole run: the command's Context fills it, the error report reads it.
  const deps: Deps = given.secrets ? given : { ...given, secrets: new Secrets() };
  const program = buildProgram(deps, argv, options);
  let commanderMessage = '';
  // The command whose parsing failed (a verb for an unknown option, a group for an unknown verb).
  let failedCommand: Command | undefined;
  // Help is wrapped to the injected terminal's width (80 when not a terminal), never the real process's.
  const helpWidth = (): number => (deps.io.stdoutIsTTY ? (deps.io.columns ?? 80) : 80);
  // Commander copies settings to subcommands only at creation, so apply them to the whole tree.
  const configure = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.showSuggestionAfterError(true);
    cmd.configureOutput({
      writeOut: (s) => deps.io.stdout.write(s),
      // Errors go through outputError below, so commander writes here only the help of `creators` or a group
      // called without a verb: that help is what the user asked for, so it goes to stdout (as gh does).
      writeErr: (s) => deps.io.stdout.write(s),
      getOutHelpWidth: helpWidth,
      getErrHelpWidth: helpWidth,
      outputError: (s) => {
        commanderMessage = s;
        failedCommand = cmd;
      },
    });
    cmd.commands.forEach(configure);
  };
  configure(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        return EXIT.OK;
      }
      const text = (commanderMessage || err.message).replace(/^error:\s*/i, '').trim();
      // Commander's suggestion comes as `(Did you mean --mode?)` on a second line.
      const suggestion = oneNamePerCommand(
        text
          .split('\n')
          .slice(1)
          .join(' ')
          .trim()
          .replace(/^\((.*)\)$/, '$1'),
        failedCommand,
      );
      const helpPointer = `See '${commandPath(failedCommand)} --help'.`;
      const usage = new UsageError(text.split('\n')[0] ?? text, {
        hint: suggestion ? `${suggestion} ${helpPointer}` : helpPointer,
      });
      return report(usage, deps, argv);
    }
    return report(err, deps, argv);
  }
}

/** Prints an error the way the contract says (one line, JSON in json modes) and returns its exit code. */
async function report(err: unknown, deps: Deps, argv: string[]): Promise<number> {
  // The user quit the pager before the end: they have seen what they wanted (like `| head`).
  if (err instanceof PagerClosedError) return EXIT.OK;
  // A dry run of a free read printed that read's plan in place of its answer: done, nothing sent.
  if (err instanceof DryRunComplete) return EXIT.OK;
  // Ctrl-C ended a follow command (events tail) as it is meant to end: 130, quietly.
  if (err instanceof StoppedError) return err.exitCode;
  const cliError =
    err instanceof CliError
      ? err
      : deps.signal?.aborted
        ? new InterruptedError()
        : err instanceof Error && err.name === 'OutputFileError'
          ? (await import('./lib/output/sink.js')).outputFileCliError(
              err as import('./lib/output/sink.js').OutputFileError,
            )
          : new CliError(`Unexpected error: ${(err as Error)?.message ?? String(err)}`, EXIT.ERROR, {
              code: 'internal',
            });
  // Global options as far as they can be read without commander (it may have failed to parse).
  const globals = {
    json: argv.includes('--json'),
    format: flagValue(argv, '--format'),
    output: flagValue(argv, '-o') ?? flagValue(argv, '--output'),
    color: !argv.includes('--no-color'),
    debug: argv.includes('--debug'),
  };
  const term = buildTerminal(deps, globals);
  const format = errorFormatAsked(globals, deps.env);
  const { printError } = await import('./lib/output/errors-print.js');
  const debugStack = term.debug ? ((err as Error)?.stack ?? undefined) : undefined;
  printError(
    term,
    {
      format: format ?? 'table',
      formatExplicit: true,
      color: term.stderrColor,
      quiet: term.quiet,
      secrets: term.secrets,
    },
    {
      message: cliError.message,
      code: cliError.code,
      status: cliError.status,
      retryAfter: cliError.retryAfter,
      hint: cliError.hint,
      maybeCharged: cliError.maybeCharged,
      spent: cliError.spent,
    },
    debugStack,
  );
  return cliError.exitCode;
}

/**
 * Commander suggests a verb and its aliases as separate words ("Did you mean one of list, ls?"): keep one
 * name per command, its own.
 */
function oneNamePerCommand(suggestion: string, group: Command | undefined): string {
  const m = /^Did you mean one of (.+)\?$/.exec(suggestion);
  if (!m || !group) return suggestion;
  const names = [
    ...new Set(
      (m[1] ?? '')
        .split(', ')
        .map((word) => group.commands.find((c) => c.name() === word || c.aliases().includes(word))?.name() ?? word),
    ),
  ];
  return names.length === 1 ? `Did you mean ${names[0]}?` : `Did you mean one of ${names.join(', ')}?`;
}

/** `creators enrich handle` for the verb `handle` of the group `enrich` (`creators` when unknown). */
function commandPath(cmd: Command | undefined): string {
  const names: string[] = [];
  for (let c: Command | null | undefined = cmd; c; c = c.parent) names.unshift(c.name());
  return names.length > 0 ? names.join(' ') : 'creators';
}

function flagValue(argv: string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  if (i >= 0 && i + 1 < argv.length) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${flag}=`));
  return eq?.slice(flag.length + 1);
}

/** The production entry: real process streams, environment and Ctrl-C handling. */
export async function run(): Promise<number> {
  const controller = new AbortController();
  // Every request waiting (at the pacer, on a retry, in flight) listens on this one signal and lets go when it
  // is done; a bulk run keeps up to 64 at once (concurrency.ts), which Node's default of 10 reports as a leak.
  setMaxListeners(0, controller.signal);
  let firstInterruptAt: number | undefined;
  let waitingSince: number | undefined;
  // While a pager runs, Ctrl-C is the pager's (less stays, as it should): the output was complete
  // before the pager started, and leaving less behind would break the terminal.
  let pagersRunning = 0;
  const onCtrlC = (): void => {
    if (pagersRunning === 0) onSigint();
  };
  const onSigint = (): void => {
    // A second Ctrl-C forces the exit. A repeat within a second is not counted: `conf` loads
    // `atomically`, whose exit hook (when-exit) re-raises the signal it caught at once, and that
    // echo must not cut short the clean stop (committing output files) the first one started.
    if (firstInterruptAt !== undefined) {
      if (Date.now() - firstInterruptAt <= 1000) return;
      // Work that must not be cut short (a refreshed login not yet stored: the server has killed the
      // old pair) is waited for, once, with a line saying so; a further Ctrl-C exits regardless.
      const holds = pendingExitHolds();
      if (holds.length === 0 || waitingSince !== undefined) {
        if (waitingSince === undefined || Date.now() - waitingSince > 1000) process.exit(EXIT.INTERRUPTED);
        return;
      }
      waitingSince = Date.now();
      process.stderr.write(`Saving ${holds.join(' and ')} before exiting (Ctrl-C again to exit now and lose it).\n`);
      void exitHoldsSettled().then(() => process.exit(EXIT.INTERRUPTED));
      return;
    }
    firstInterruptAt = Date.now();
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onCtrlC);
  process.on('SIGTERM', onSigint);
  // A closed pipe (`creators ... | head`) is not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(EXIT.OK);
  });
  const deps: Deps = {
    io: {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      stdinIsTTY: Boolean(process.stdin.isTTY),
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      columns: process.stdout.columns,
    },
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
    sleep: realSleep,
    signal: controller.signal,
    startPager: async (command, env) => {
      const { spawnPager } = await import('./lib/io/pager-process.js');
      const pager = await spawnPager(command, env);
      pagersRunning++;
      void pager.exited.then(() => {
        pagersRunning--;
      });
      return pager;
    },
  };
  try {
    return await main(process.argv.slice(2), deps);
  } finally {
    process.off('SIGINT', onCtrlC);
    process.off('SIGTERM', onSigint);
  }
}
