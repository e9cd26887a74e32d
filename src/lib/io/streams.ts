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
}
