/**
 * The terminal object: the one owner of stdin/stdout/stderr and what is known about them (TTY-ness,
 * width, colour), of the human-facing side channel (notices, warnings, debug lines, spinners,
 * confirmations) and of the input ports (cwd and stdin, read by `io/input.ts`). Lib workflows take this instead of the
 * whole Context (cli/cli's IOStreams is the model). Data never goes through here: it leaves through
 * `lib/output`, which takes `term.io`.
 */
import type { Readable } from 'node:stream';
import { Secrets } from '../http/redact.js';
import { confirm } from './prompt.js';
import { escapeControls } from './safe-text.js';
import { createSpinner, type Spinner } from './spinner.js';
import type { InputPorts } from './input.js';
import type { Io } from './streams.js';

export interface TerminalOptions {
  /** `--quiet`: no notices, spinners or progress. */
  quiet: boolean;
  /** ANSI colour allowed at all (no `--no-color`, no NO_COLOR, TERM not dumb). */
  color: boolean;
  /** `--debug`: HTTP exchanges logged on stderr. */
  debug: boolean;
  /** `--yes`: confirmations answer themselves. */
  yes: boolean;
  /** Directory relative paths are taken from. */
  cwd: string;
  /** The credentials this run holds, redacted from every message (a fresh, empty set when omitted). */
  secrets?: Secrets | undefined;
}


/** The side channel for people: notices (silenced by --quiet) and warnings (always shown). */
export interface Notices {
  notice(message: string): void;
  warn(message: string): void;
}

export class Terminal implements InputPorts, Notices {
  readonly io: Io;
  readonly quiet: boolean;
  readonly debug: boolean;
  readonly yes: boolean;
  readonly cwd: string;
  /** ANSI colour allowed on stderr (a terminal, colour not switched off). */
  readonly stderrColor: boolean;
  /** The credentials this run holds: whoever learns one adds it, every message is redacted with it. */
  readonly secrets: Secrets;

  constructor(io: Io, options: TerminalOptions) {
    this.io = io;
    this.quiet = options.quiet;
    this.debug = options.debug;
    this.yes = options.yes;
    this.cwd = options.cwd;
    this.stderrColor = options.color && io.stderrIsTTY;
    this.secrets = options.secrets ?? new Secrets();
  }

  /**
   * A message made safe for the terminal: credentials redacted, control characters from data shown as
   * visible escapes. Everything this object writes goes through here; callers add colour afterwards.
   */
  safe(message: string): string {
    return escapeControls(this.secrets.redact(message));
  }

  get stdin(): Readable {
    return this.io.stdin;
  }

  get stdinIsTTY(): boolean {
    return this.io.stdinIsTTY;
  }

  /** Both stdin and stderr are terminals: a person can be asked something. */
  get interactive(): boolean {
    return this.io.stdinIsTTY && this.io.stderrIsTTY;
  }

  /** A notice on stderr (waits, summaries); silenced by `--quiet`. */
  notice(message: string): void {
    if (!this.quiet) this.io.stderr.write(`${this.safe(message)}\n`);
  }

  /** A warning on stderr; shown even with `--quiet`. */
  warn(message: string): void {
    this.io.stderr.write(`${this.stderrColor ? '\x1b[33mwarning:\x1b[39m' : 'warning:'} ${this.safe(message)}\n`);
  }

  /** A `--debug` line on stderr, tagged `[debug]` (or `tag`); known credentials are redacted here too. */
  debugLine(line: string, tag = 'debug'): void {
    if (this.debug) this.io.stderr.write(`[${tag}] ${this.safe(line)}\n`);
  }

  /** A spinner on stderr: a no-op unless stderr is a terminal and `--quiet` is off. */
  spinner(text: string): Spinner {
    const spinner = createSpinner(this.io, { quiet: this.quiet, color: this.stderrColor }, this.safe(text));
    const safe = (t: string | undefined): string | undefined => (t === undefined ? undefined : this.safe(t));
    return {
      update: (next) => spinner.update(this.safe(next)),
      stop: () => spinner.stop(),
      succeed: (final) => spinner.succeed(safe(final)),
      fail: (final) => spinner.fail(safe(final)),
      ready: spinner.ready,
    };
  }

  /** Asks yes/no on the terminal (`--yes` answers; exit 2 without a terminal; end of input is "no"). */
  confirm(question: string): Promise<boolean> {
    return confirm(this, this.safe(question));
  }
}
