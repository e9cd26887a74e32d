import type { Readable, Writable } from 'node:stream';

/**
 * The process's streams with their terminal-ness, as the outside world hands them in (`Deps.io`:
 * process.std* in production, in-memory streams in tests). The terminal object is built on them and is
 * the only holder below the composition root.
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
