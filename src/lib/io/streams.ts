import type { Readable, Writable } from 'node:stream';

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
}
