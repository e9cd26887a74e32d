/**
 * The terminal object: the one owner of stdin/stdout/stderr and what is known about them (TTY-ness,
 * width, colour), of the human-facing side channel (notices, warnings, debug lines, spinners, progress
 * lines, confirmations), of the input ports (cwd and stdin, read by `io/input.ts`) and of the rules of
 * what may be live on the screen at once. Lib workflows and printers take this (or a `Pick` of it)
 * instead of the whole Context (cli/cli's IOStreams is the model). Data is written by `lib/output`
 * on `stdout`, after `clearLive()`.
 */
import type { Readable, Writable } from 'node:stream';
import { Secrets } from '../http/redact.js';
import type { RequestWaits, WaitHandle } from '../http/wait.js';
import { confirm } from './prompt.js';
import { escapeControls } from './safe-text.js';
import { createSpinner, type Spinner } from './spinner.js';
import type { InputPorts } from './input.js';
import type { Io } from './streams.js';

/** The side channel for people: notices (silenced by --quiet) and warnings (always shown). */
export interface Notices {
  notice(message: string): void;
  warn(message: string): void;
}

/**
 * A line of the command's own on stderr, redrawn in place (a progress line). While it is open no wait
 * spinner shows.
 */
export interface LiveLine {
  /** Redraws the line with `text(elapsed ms)`, at most every 250 ms unless forced (the first draw always shows). */
  draw(text: (elapsedMs: number) => string, force?: boolean): void;
  /** Erases the line (before a question or a summary); the next draw brings it back. */
  clear(): void;
  /** Erases the line for good: the wait spinner may show again. */
  close(): void;
}

const LIVE_LINE_REDRAW_MS = 250;

const NO_LIVE_LINE: LiveLine = { draw() {}, clear() {}, close() {} };

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
  /**
   * How long a request waits before the wait spinner shows (default 300 ms); `Infinity` never shows it
   * (the in-process tests' default, so a slow loopback request on a loaded machine draws no frames).
   */
  waitSpinnerDelayMs?: number | undefined;
}

/** The delay before a waiting request shows a spinner: a quick answer shows nothing at all. */
export const WAIT_SPINNER_DELAY_MS = 300;

export class Terminal implements Io, InputPorts, Notices, RequestWaits {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly columns: number | undefined;
  readonly quiet: boolean;
  readonly debug: boolean;
  readonly yes: boolean;
  readonly cwd: string;
  /** ANSI colour allowed on stderr (a terminal, colour not switched off). */
  readonly stderrColor: boolean;
  /** The credentials this run holds: whoever learns one adds it, every message is redacted with it. */
  readonly secrets: Secrets;
  private readonly waitDelayMs: number;
  /** Requests waiting for an answer, in the order their text last changed (the last one is shown). */
  private readonly waits = new Set<{ text: string }>();
  /** Live displays of the command's own (a `batch poll` spinner, a progress line, `events tail`). */
  private ownDisplays = 0;
  /** The command is over: no wait spinner any more. */
  private closed = false;
  private waitSpinner: Spinner | undefined;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(io: Io, options: TerminalOptions) {
    this.stdin = io.stdin;
    this.stdout = io.stdout;
    this.stderr = io.stderr;
    this.stdinIsTTY = io.stdinIsTTY;
    this.stdoutIsTTY = io.stdoutIsTTY;
    this.stderrIsTTY = io.stderrIsTTY;
    this.columns = io.columns;
    this.quiet = options.quiet;
    this.debug = options.debug;
    this.yes = options.yes;
    this.cwd = options.cwd;
    this.stderrColor = options.color && io.stderrIsTTY;
    this.secrets = options.secrets ?? new Secrets();
    this.waitDelayMs = options.waitSpinnerDelayMs ?? WAIT_SPINNER_DELAY_MS;
  }

  /**
   * A message made safe for the terminal: credentials redacted, control characters from data shown as
   * visible escapes. Everything this object writes goes through here; callers add colour afterwards.
   */
  safe(message: string): string {
    return escapeControls(this.secrets.redact(message));
  }

  /** Both stdin and stderr are terminals: a person can be asked something. */
  get interactive(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY;
  }

  /** A notice on stderr (waits, summaries); silenced by `--quiet`. */
  notice(message: string): void {
    if (!this.quiet) this.aboveLive(`${this.safe(message)}\n`);
  }

  /** A warning on stderr; shown even with `--quiet`. */
  warn(message: string): void {
    this.aboveLive(`${this.stderrColor ? '\x1b[33mwarning:\x1b[39m' : 'warning:'} ${this.safe(message)}\n`);
  }

  /**
   * A message on stderr that a person must act on (a URL to open, what to paste), shown even with
   * `--quiet`; no prefix. Lines end with a line feed.
   */
  tell(message: string): void {
    this.aboveLive(`${this.safe(message)}\n`);
  }

  /** A `--debug` line on stderr, tagged `[debug]` (or `tag`); known credentials are redacted here too. */
  debugLine(line: string, tag = 'debug'): void {
    if (this.debug) this.aboveLive(`[${tag}] ${this.safe(line)}\n`);
  }

  /**
   * A spinner on stderr: a no-op unless stderr is a terminal and `--quiet` is off. It is the command's
   * own live display: no wait spinner while it runs.
   */
  spinner(text: string): Spinner {
    const release = this.ownDisplay();
    const spinner = createSpinner(this, { quiet: this.quiet, color: this.stderrColor }, this.safe(text));
    const safe = (t: string | undefined): string | undefined => (t === undefined ? undefined : this.safe(t));
    return {
      update: (next) => spinner.update(this.safe(next)),
      stop: () => {
        spinner.stop();
        release();
      },
      succeed: (final) => {
        spinner.succeed(safe(final));
        release();
      },
      fail: (final) => {
        spinner.fail(safe(final));
        release();
      },
      ready: spinner.ready,
    };
  }

  /**
   * A progress line of the command's own on stderr, its clock started at `startedAt` (default: now):
   * only on a terminal and never with `--quiet`, else nothing is drawn. It holds the screen from now
   * until `close()`: no wait spinner meanwhile. Its text is escaped like every other line for people.
   */
  liveLine(now: () => number, startedAt = now()): LiveLine {
    if (!this.stderrIsTTY || this.quiet) return NO_LIVE_LINE;
    const release = this.ownDisplay();
    let lastDraw = -Infinity;
    let drawn = false;
    const clear = (): void => {
      if (drawn) this.stderr.write('\r\x1b[2K');
      drawn = false;
    };
    return {
      draw: (text, force = false) => {
        const t = now();
        if (!force && drawn && t - lastDraw < LIVE_LINE_REDRAW_MS) return;
        lastDraw = t;
        drawn = true;
        this.stderr.write(`\r\x1b[2K${escapeControls(text(t - startedAt))}`);
      },
      clear,
      close: () => {
        clear();
        release();
      },
    };
  }

  /** Asks yes/no on the terminal (`--yes` answers; exit 2 without a terminal; end of input is "no"). */
  confirm(question: string): Promise<boolean> {
    this.clearLive();
    return confirm(this, this.safe(question));
  }

  /**
   * A request started waiting for its answer (the HTTP client's `waits` port). On a terminal, after
   * the delay with no answer, a spinner on stderr says `text`; it goes when the last wait ends. Never
   * with `--quiet` or `--debug` (the log shows the traffic), nor while the command shows a live display
   * of its own.
   */
  beginWait(text: string): WaitHandle {
    const entry = { text: this.safe(text) };
    this.waits.add(entry);
    this.armWaitSpinner();
    return {
      update: (next) => {
        if (!this.waits.has(entry)) return;
        entry.text = this.safe(next);
        // The most recently changed wait is the one shown.
        this.waits.delete(entry);
        this.waits.add(entry);
        this.waitSpinner?.update(entry.text);
      },
      end: () => {
        if (!this.waits.delete(entry)) return;
        if (this.waits.size === 0) this.hideWaitSpinner();
        else this.waitSpinner?.update(this.waitText());
      },
    };
  }

  /**
   * The command shows a live display of its own (a progress line, events as they come): no wait
   * spinner until the returned function is called.
   */
  ownDisplay(): () => void {
    this.ownDisplays++;
    this.hideWaitSpinner();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.ownDisplays--;
      this.armWaitSpinner();
    };
  }

  /**
   * Erases the wait spinner before something else is written to the terminal (data on stdout); it comes
   * back after the delay if requests are still waiting and nothing else is written meanwhile.
   */
  clearLive(): void {
    this.hideWaitSpinner();
    this.armWaitSpinner();
  }

  /** The command is over: the wait spinner is erased and never shown again (errors print next). */
  closeLive(): void {
    this.closed = true;
    this.hideWaitSpinner();
  }

  /** Resolves once the wait spinner on screen (if any) is drawing; for tests. */
  get liveReady(): Promise<void> {
    return this.waitSpinner?.ready ?? Promise.resolve();
  }

  /** Writes a whole line to stderr on a line of its own: the spinner is erased first and redrawn below it. */
  private aboveLive(line: string): void {
    const shown = this.waitSpinner !== undefined;
    this.hideWaitSpinner();
    this.stderr.write(line);
    // It had waited its delay already: straight back, under the line.
    if (shown && this.waitSpinnerAllowed()) this.showWaitSpinner();
    else this.armWaitSpinner();
  }

  private waitSpinnerAllowed(): boolean {
    return (
      this.stderrIsTTY && !this.quiet && !this.debug && !this.closed && this.ownDisplays === 0 && this.waits.size > 0 && Number.isFinite(this.waitDelayMs)
    );
  }

  private waitText(): string {
    let last = '';
    for (const w of this.waits) last = w.text;
    return last;
  }

  private armWaitSpinner(): void {
    if (this.waitSpinner !== undefined || this.waitTimer !== undefined || !this.waitSpinnerAllowed()) return;
    this.waitTimer = setTimeout(() => {
      this.waitTimer = undefined;
      if (this.waitSpinner === undefined && this.waitSpinnerAllowed()) this.showWaitSpinner();
    }, this.waitDelayMs);
    // Decoration only: never what keeps the process alive.
    this.waitTimer.unref?.();
  }

  private showWaitSpinner(): void {
    this.waitSpinner = createSpinner(this, { quiet: this.quiet, color: this.stderrColor }, this.waitText());
  }

  private hideWaitSpinner(): void {
    if (this.waitTimer !== undefined) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    this.waitSpinner?.stop();
    this.waitSpinner = undefined;
  }
}
