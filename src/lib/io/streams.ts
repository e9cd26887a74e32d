import type { Readable, Writable } from 'node:stream';
import { escapeControls } from './safe-text.js';

/** The side channel for people: notices (silenced by --quiet) and warnings (always shown). */
export interface Notices {
  notice(message: string): void;
  warn(message: string): void;
}

/**
 * The process's streams with their terminal-ness. Production wires process.std*, tests pass
 * in-memory streams; nothing below main.ts touches `process.stdout` directly.
 */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width in columns, when known. */
  columns?: number | undefined;
  /**
   * Erases the terminal's live line (the request spinner) before data is written to stdout; the output
   * path calls it. Set by the terminal object on its own copy of the streams.
   */
  clearLive?: (() => void) | undefined;
  /**
   * The terminal object's notices and warnings (the spinner erased first, credentials redacted, control
   * characters escaped): how code that holds only the streams (the printers) writes to stderr. Set by
   * the terminal object on its own copy of the streams.
   */
  notices?: Notices | undefined;
}

/** A notice on stderr through the terminal object; bare streams (unit tests) get the line escaped. */
export function noticeOn(io: Io, message: string): void {
  if (io.notices !== undefined) io.notices.notice(message);
  else io.stderr.write(`${escapeControls(message)}\n`);
}

/** A warning on stderr through the terminal object; bare streams (unit tests) get the line escaped. */
export function warnOn(io: Io, message: string): void {
  if (io.notices !== undefined) io.notices.warn(message);
  else io.stderr.write(`warning: ${escapeControls(message)}\n`);
}
