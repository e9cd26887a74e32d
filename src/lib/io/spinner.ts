/**
 * A progress spinner on stderr, only on a terminal and never with `--quiet`. ora is imported lazily
 * so commands that never spin (and `--help`) do not load it.
 */
import type { Io } from './streams.js';
import { colors } from './color.js';

export interface Spinner {
  /** Changes the text next to the spinner. */
  update(text: string): void;
  /** Removes the spinner line. */
  stop(): void;
  /** Removes the spinner and prints `✔ text` (default: the current text). */
  succeed(text?: string): void;
  /** Removes the spinner and prints `✖ text` (default: the current text). */
  fail(text?: string): void;
  /** Resolves once ora is loaded and spinning (or at once for the no-op spinner); for tests. */
  readonly ready: Promise<void>;
}

interface OraLike {
  text: string;
  start(): unknown;
  stop(): unknown;
}

const noop: Spinner = {
  update() {},
  stop() {},
  succeed() {},
  fail() {},
  ready: Promise.resolve(),
};

/**
 * Creates a spinner showing `text` on `io.stderr`. Returns at once: ora is imported in the background
 * and starts spinning when it arrives, unless the spinner was stopped first (a quick operation then
 * shows no spinner at all). When stderr is not a terminal or `settings.quiet` is set, every method is a
 * no-op and nothing is ever written. It never writes to stdout. `succeed`/`fail` print their final line
 * themselves, so it appears even when ora had not loaded yet.
 */
export function createSpinner(io: Pick<Io, 'stderr' | 'stderrIsTTY'>, settings: { quiet: boolean; color: boolean }, text: string): Spinner {
  if (!io.stderrIsTTY || settings.quiet) return noop;
  const c = colors(settings.color);
  // Some ptys (script, containers, CI) report a width of 0: ora then divides by zero and spins the CPU
  // forever. Such a terminal gets no animation, only the final line.
  const width = (io.stderr as { columns?: unknown }).columns;
  if (width !== undefined && !(typeof width === 'number' && width > 0)) return finalLineOnly(io, c, text);
  let current = text;
  let stopped = false;
  let spinner: OraLike | undefined;

  const ready = import('ora').then(
    ({ default: ora }) => {
      if (stopped) return;
      spinner = ora({
        text: current,
        stream: io.stderr,
        isEnabled: true,
        // ora would otherwise put process.stdin in raw mode; prompts and `-` inputs need it untouched.
        discardStdin: false,
        color: settings.color ? 'cyan' : false,
      });
      spinner.start();
    },
    // A spinner is decoration: if ora cannot load, carry on without one.
    () => {},
  );

  const finish = (symbol: string, final: string | undefined): void => {
    if (stopped) return;
    stopped = true;
    spinner?.stop();
    if (final !== undefined) io.stderr.write(`${symbol} ${final}\n`);
  };

  return {
    update(next) {
      current = next;
      if (spinner !== undefined && !stopped) spinner.text = next;
    },
    stop: () => finish('', undefined),
    succeed: (final) => finish(c.green('✔'), final ?? current),
    fail: (final) => finish(c.red('✖'), final ?? current),
    ready,
  };
}

/** A spinner that never animates: `succeed`/`fail` still print their final line. */
function finalLineOnly(io: Pick<Io, 'stderr'>, c: ReturnType<typeof colors>, text: string): Spinner {
  let current = text;
  let stopped = false;
  const finish = (symbol: string, final: string | undefined): void => {
    if (stopped) return;
    stopped = true;
    if (final !== undefined) io.stderr.write(`${symbol} ${final}\n`);
  };
  return {
    update(next) {
      current = next;
    },
    stop: () => finish('', undefined),
    succeed: (final) => finish(c.green('✔'), final ?? current),
    fail: (final) => finish(c.red('✖'), final ?? current),
    ready: Promise.resolve(),
  };
}
