// ora is imported lazily, so `--help` and commands that never spin do not load it.
import type { Io } from './streams.js';
import { colors } from './color.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
  succeed(text?: string): void;
  fail(text?: string): void;
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

export interface SpinnerSettings {
  quiet: boolean;
  color: boolean;
  /** Unicode frames and marks (lib/io/charset.ts); absent or false: ASCII (`-\\|/`, `ok`, `x`). */
  unicode?: boolean | undefined;
  /** Cursor movement allowed (not TERM=dumb); false: no frames, only the final line. Default true. */
  cursor?: boolean | undefined;
}

/** Returns at once; ora spins once loaded unless stopped first. A no-op off a terminal or with `quiet`. */
export function createSpinner(
  io: Pick<Io, 'stderr' | 'stderrIsTTY'>,
  settings: SpinnerSettings,
  text: string,
): Spinner {
  if (!io.stderrIsTTY || settings.quiet) return noop;
  const c = colors(settings.color);
  const marks = settings.unicode === true ? { ok: '✔', failed: '✖' } : { ok: 'ok', failed: 'x' };
  if (settings.cursor === false) return finalLineOnly(io, c, marks, text);
  // Some ptys (script, containers, CI) report width 0: ora then divides by zero and spins the CPU forever.
  const width = (io.stderr as { columns?: unknown }).columns;
  if (width !== undefined && !(typeof width === 'number' && width > 0)) return finalLineOnly(io, c, marks, text);
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
        ...(settings.unicode === true ? {} : { spinner: 'line' as const }),
      });
      spinner.start();
    },
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
    succeed: (final) => finish(c.green(marks.ok), final ?? current),
    fail: (final) => finish(c.red(marks.failed), final ?? current),
    ready,
  };
}

function finalLineOnly(
  io: Pick<Io, 'stderr'>,
  c: ReturnType<typeof colors>,
  marks: { ok: string; failed: string },
  text: string,
): Spinner {
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
    succeed: (final) => finish(c.green(marks.ok), final ?? current),
    fail: (final) => finish(c.red(marks.failed), final ?? current),
    ready: Promise.resolve(),
  };
}
