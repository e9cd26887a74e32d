import readline from 'node:readline';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { main } from '../../src/main.js';
import type { Deps } from '../../src/app/deps.js';
import type { ProgramOptions } from '../../src/program.js';
import { tempDir } from './temp.js';

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Standard input: text (sent as UTF-8) or the exact bytes. */
  stdin?: string | Buffer;
  /** Pretend stdout/stderr are terminals. */
  tty?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** Pretend stdin is a terminal (for prompts answered from `stdin`). */
  stdinTTY?: boolean;
  columns?: number;
  dispatcher?: Dispatcher;
  configDir?: string;
  cwd?: string;
  signal?: AbortSignal;
  /** Records sleeps instead of waiting. */
  sleeps?: number[];
  now?: () => number;
  /** Called with each sleep's duration (e.g. to move a shared sandbox clock, or to press Ctrl-C). */
  onSleep?: (ms: number) => void;
  /** Browser opener double (`creators login`). */
  openBrowser?: Deps['openBrowser'];
  /**
   * The wait spinner's delay (default: never, so a slow loopback request draws no frames in a test's
   * stderr). Tests of the spinner set it, usually with `ttyStreams`.
   */
  waitSpinnerDelayMs?: number;
  /**
   * stdout and stderr behave as terminal streams (isTTY, cursorTo, clearLine...) as well as being
   * flagged as terminals, so ora draws and erases as it would on a real one.
   */
  ttyStreams?: boolean;
  /** The platform the drawing rule reads (default linux, whatever the host). */
  platform?: NodeJS.Platform;
  /** Called with each piece written to stderr, as it is written. */
  onStderr?: (text: string) => void;
  /** Pager double (test/helpers/fake-pager.ts); without one nothing is paged, even on a fake terminal. */
  startPager?: Deps['startPager'];
  /** The run's credential set, to check afterwards what it learnt (main creates one otherwise). */
  secrets?: Deps['secrets'];
  /** Called instead of the verb, with its parsed and typed values (flag tests: nothing runs, nothing is sent). */
  run?: ProgramOptions['run'];
  /** A stdout of the test's own (e.g. one whose reader goes away, as `| head -1`); `stdout` in the result is then empty. */
  stdout?: Writable;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as a terminal would show them. */
  combined: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
  /** The JSON error object printed on stderr in json modes. */
  errorJson(): { error: { code: string; message: string; status: number | null; retry_after: number | null } };
}

/** A fresh, empty config directory: every test gets its own store. */
export function tempConfigDir(): string {
  return tempDir('creators-cfg-');
}

/**
 * Runs the CLI in-process through `main(argv, deps)` with in-memory io, an isolated config
 * directory, a clock and a sleep that returns at once (the waits are recorded in `sleeps`).
 */
export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdout = options.stdout ?? (options.ttyStreams ? fakeTtyStream(options.columns ?? 100) : new PassThrough());
  const stderr = options.ttyStreams ? fakeTtyStream(options.columns ?? 100) : new PassThrough();
  let out = '';
  let err = '';
  let combined = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    combined += c.toString('utf8');
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
    combined += c.toString('utf8');
    options.onStderr?.(c.toString('utf8'));
  });
  const sleeps = options.sleeps ?? [];
  let clock = options.now ? undefined : Date.parse('2026-11-22T10:00:00Z');
  const deps: Deps = {
    io: {
      stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
      stdout,
      stderr,
      stdinIsTTY: options.stdinTTY ?? (options.stdin === undefined && Boolean(options.tty)),
      stdoutIsTTY: options.stdoutTTY ?? Boolean(options.tty),
      stderrIsTTY: options.stderrTTY ?? Boolean(options.tty),
      columns: options.columns ?? 100,
    },
    // A UTF-8 locale, as on most terminals (lib/io/charset.ts draws ASCII without one); a test of ASCII sets LANG=C.
    env: { HOME: '/nonexistent-home', LANG: 'C.UTF-8', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    now: options.now ?? (() => clock as number),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      options.onSleep?.(ms);
      if (clock !== undefined) clock += ms;
    },
    dispatcher: options.dispatcher,
    configDir: options.configDir ?? tempConfigDir(),
    signal: options.signal,
    openBrowser: options.openBrowser,
    waitSpinnerDelayMs: options.waitSpinnerDelayMs ?? Number.POSITIVE_INFINITY,
    startPager: options.startPager,
    secrets: options.secrets,
    platform: options.platform ?? 'linux',
  };
  const code = await main(argv, deps, { run: options.run });
  await new Promise((r) => setImmediate(r));
  return {
    code,
    stdout: out,
    stderr: err,
    combined,
    json<T>() {
      return JSON.parse(out) as T;
    },
    errorJson() {
      // The last line as a terminal shows it: a progress line erased in place before the error is gone.
      const line =
        err
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^[^\n]*\r\x1b\[2K/, '') ?? '';
      return JSON.parse(line);
    },
  };
}

/**
 * An in-memory stream that answers like a terminal's (tty.WriteStream): `isTTY`, `columns` and the
 * cursor methods, which write the same ANSI sequences node's readline does.
 */
export function fakeTtyStream(columns: number): PassThrough {
  const stream = new PassThrough();
  return Object.assign(stream, {
    isTTY: true,
    columns,
    rows: 40,
    cursorTo: (x: number, y?: number | (() => void), cb?: () => void) =>
      readline.cursorTo(stream, x, typeof y === 'number' ? y : undefined, typeof y === 'function' ? y : cb),
    moveCursor: (dx: number, dy: number, cb?: () => void) => readline.moveCursor(stream, dx, dy, cb),
    clearLine: (dir: -1 | 0 | 1, cb?: () => void) => readline.clearLine(stream, dir, cb),
  });
}
