import { PassThrough } from 'node:stream';

import type { Io } from '../../../src/lib/io/streams.js';

/** An in-memory `Io` for printer tests: text written to stdout/stderr is collected. */
export interface MemoryIo extends Io {
  stdout: PassThrough;
  stderr: PassThrough;
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

export interface MemoryIoOptions {
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  columns?: number;
  stdin?: string;
  /** Small values make the streams exert backpressure. */
  highWaterMark?: number;
}

function collector(highWaterMark: number | undefined): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough(highWaterMark === undefined ? {} : { highWaterMark });
  const chunks: string[] = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => chunks.push(chunk));
  return { stream, text: () => chunks.join('') };
}

/** Builds a memory io; TTY flags default to false (a script's pipe). */
export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const stdout = collector(options.highWaterMark);
  const stderr = collector(options.highWaterMark);
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  return {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    columns: options.columns,
    out: stdout.text,
    err: stderr.text,
  };
}
