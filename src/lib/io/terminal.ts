/**
 * The terminal object (cli/cli's IOStreams): the process's streams and their TTY-ness, colour, the side channel
 * for people (notices, warnings, debug lines, spinners, progress lines, confirmations) and the input ports. It
 * owns what is live on stderr: one wait spinner for slow requests, hidden while the command shows a display of
 * its own (`ownDisplay`), erased before data on stdout (`clearLive`) and for good when the command ends
 * (`closeLive`); lines for people are written above it. Lib takes this (or a `Pick` of it), never the Context.
 */
import type { Readable, Writable } from 'node:stream';
import { Secrets } from '../http/redact.js';
import type { RequestWaits, WaitHandle } from '../http/wait.js';
import { confirm } from './prompt.js';
import { escapeControls } from './safe-text.js';
import { displayWidth } from './width.js';
import { createSpinner, type Spinner } from './spinner.js';
import type { InputPorts } from './input.js';
import type { Io } from './streams.js';

export interface Notices {
  notice(message: string): void;
  warn(message: string): void;
}

export interface LiveLine {
  draw(text: (elapsedMs: number) => string, force?: boolean): void;
  /** Erases the line (before a question or a summary); the next draw brings it back. */
  clear(): void;
  close(): void;
}

const LIVE_LINE_REDRAW_MS = 250;

const NO_LIVE_LINE: LiveLine = { draw() {}, clear() {}, close() {} };

export interface TerminalOptions {
  quiet: boolean;
  color: boolean;
  debug: boolean;
  yes: boolean;
  cwd: string;
  secrets?: Secrets | undefined;
  /** `Infinity` never shows the wait spinner: the in-process tests' default (a loaded machine draws no frames). */
  waitSpinnerDelayMs?: number | undefined;
  /** Unicode spinner frames and marks (lib/io/charset.ts decides); default false: ASCII. */
  unicode?: boolean | undefined;
  /** Cursor movement allowed (lib/io/charset.ts: not TERM=dumb); default true. */
  cursor?: boolean | undefined;
}

/** Without cursor control a progress line cannot be redrawn: a whole line at most this often. */
const WHOLE_LINE_MS = 5_000;

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
  readonly stderrColor: boolean;
  /** Whoever learns a credential adds it here; every message is redacted with it. */
  readonly secrets: Secrets;
  private readonly waitDelayMs: number;
  private readonly drawing: { unicode: boolean; cursor: boolean };
  /** Requests waiting for an answer, in the order their text last changed: the last one is shown. */
  private readonly waits = new Set<{ text: string }>();
  private ownDisplays = 0;
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
    this.drawing = { unicode: options.unicode ?? false, cursor: options.cursor ?? true };
  }

  /** Credentials redacted, data's control characters escaped: everything written here goes through it. */
  safe(message: string): string {
    return escapeControls(this.secrets.redact(message));
  }

  get interactive(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY;
  }

  notice(message: string): void {
    if (!this.quiet) this.aboveLive(`${this.fitted(this.safe(message))}\n`);
  }

  warn(message: string): void {
    const text = this.fitted(`warning: ${this.safe(message)}`);
    this.aboveLive(`${this.stderrColor ? `\x1b[33mwarning:\x1b[39m${text.slice('warning:'.length)}` : text}\n`);
  }

  /** For a person to act on (a URL to open, what to paste): shown even with `--quiet`, no prefix. */
  tell(message: string): void {
    this.aboveLive(`${this.fitted(this.safe(message))}\n`);
  }

  /**
   * A line for people on a terminal, broken at spaces to its width so the terminal never breaks a word; a
   * word wider than the terminal (a path, a URL) stays whole on a line of its own. Piped: unchanged.
   */
  private fitted(text: string): string {
    if (!this.stderrIsTTY) return text;
    const own = (this.stderr as { columns?: unknown }).columns;
    const width = typeof own === 'number' && own > 0 ? own : this.columns;
    if (width === undefined || width <= 0) return text;
    return text
      .split('\n')
      .map((line) => {
        if (displayWidth(line) <= width) return line;
        const out: string[] = [];
        const indent = /^ */.exec(line)?.[0] ?? '';
        let current = indent;
        for (const word of line.slice(indent.length).split(' ')) {
          const candidate = current.trim() === '' ? `${current}${word}` : `${current} ${word}`;
          if (current.trim() !== '' && displayWidth(candidate) > width) {
            out.push(current);
            current = word;
          } else current = candidate;
        }
        out.push(current);
        return out.join('\n');
      })
      .join('\n');
  }

  debugLine(line: string, tag = 'debug'): void {
    if (this.debug) this.aboveLive(`[${tag}] ${this.safe(line)}\n`);
  }

  /** The command's own live display: no wait spinner while it runs. */
  spinner(text: string): Spinner {
    const release = this.ownDisplay();
    const spinner = createSpinner(
      this,
      { quiet: this.quiet, color: this.stderrColor, ...this.drawing },
      this.safe(text),
    );
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

  /** Only on a terminal without `--quiet`; holds the screen until `close()`, no wait spinner meanwhile. */
  liveLine(now: () => number, startedAt = now()): LiveLine {
    if (!this.stderrIsTTY || this.quiet) return NO_LIVE_LINE;
    if (!this.drawing.cursor) return this.wholeLines(now, startedAt);
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

  /** A live line without cursor control: the state as a whole line every few seconds, nothing erased. */
  private wholeLines(now: () => number, startedAt: number): LiveLine {
    const release = this.ownDisplay();
    let lastDraw = startedAt;
    return {
      draw: (text) => {
        const t = now();
        if (t - lastDraw < WHOLE_LINE_MS) return;
        lastDraw = t;
        this.stderr.write(`${escapeControls(text(t - startedAt))}\n`);
      },
      clear() {},
      close: release,
    };
  }

  confirm(question: string): Promise<boolean> {
    this.clearLive();
    return confirm(this, this.safe(question));
  }

  /** The HTTP client's `waits` port. The spinner shows after the delay, never with `--quiet` or `--debug` (the log
   * shows the traffic); it goes when the last wait ends. */
  beginWait(text: string): WaitHandle {
    const entry = { text: this.safe(text) };
    this.waits.add(entry);
    this.armWaitSpinner();
    return {
      update: (next) => {
        if (!this.waits.has(entry)) return;
        entry.text = this.safe(next);
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

  clearLive(): void {
    this.hideWaitSpinner();
    this.armWaitSpinner();
  }

  closeLive(): void {
    this.closed = true;
    this.hideWaitSpinner();
  }

  get liveReady(): Promise<void> {
    return this.waitSpinner?.ready ?? Promise.resolve();
  }

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
      this.stderrIsTTY &&
      !this.quiet &&
      !this.debug &&
      !this.closed &&
      this.ownDisplays === 0 &&
      this.waits.size > 0 &&
      Number.isFinite(this.waitDelayMs)
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
    this.waitSpinner = createSpinner(
      this,
      { quiet: this.quiet, color: this.stderrColor, ...this.drawing },
      this.waitText(),
    );
  }

  private hideWaitSpinner(): void {
    if (this.waitTimer !== undefined) clearTimeout(this.waitTimer);
    this.waitTimer = undefined;
    this.waitSpinner?.stop();
    this.waitSpinner = undefined;
  }
}
