import type { Readable, Writable } from 'node:stream';

/** The process's streams as handed in (`Deps.io`); below the composition root only the terminal object holds them. */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns?: number | undefined;
}
