import { PassThrough } from 'node:stream';

import { Terminal, type TerminalOptions } from '../../src/lib/io/terminal.js';

/** The real terminal object over in-memory streams: what a test hands to printers and lib. */
export interface MemoryTerminal extends Terminal {
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

export interface MemoryTerminalOptions extends Partial<TerminalOptions> {
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  columns?: number;
  stdin?: string;
  /** Small values make the streams exert backpressure. */
  highWaterMark?: number;
  /** A stdout of the test's own (one nobody reads, to hold writes back); `out()` is then empty. */
  stdout?: PassThrough;
}

function collector(highWaterMark: number | undefined): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough(highWaterMark === undefined ? {} : { highWaterMark });
  const chunks: string[] = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => chunks.push(chunk));
  return { stream, text: () => chunks.join('') };
}

/**
 * A terminal over memory streams. TTY flags default to false (a script's pipe); the terminal options
 * default to a plain run (no --quiet, colour, --debug or --yes; cwd `/`; never a wait spinner).
 */
export function memoryTerminal(options: MemoryTerminalOptions = {}): MemoryTerminal {
  const stdout = collector(options.highWaterMark);
  const stderr = collector(options.highWaterMark);
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const term = new Terminal(
    {
      stdin,
      stdout: options.stdout ?? stdout.stream,
      stderr: stderr.stream,
      stdinIsTTY: options.stdinIsTTY ?? false,
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      columns: options.columns,
    },
    {
      quiet: options.quiet ?? false,
      color: options.color ?? false,
      debug: options.debug ?? false,
      yes: options.yes ?? false,
      cwd: options.cwd ?? '/',
      secrets: options.secrets,
      waitSpinnerDelayMs: options.waitSpinnerDelayMs ?? Infinity,
    },
  );
  return Object.assign(term, {
    out: options.stdout === undefined ? stdout.text : () => '',
    err: stderr.text,
  }) as MemoryTerminal;
}
