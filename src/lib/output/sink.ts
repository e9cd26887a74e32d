/**
 * Where data goes: stdout, or a file written atomically (temporary file, fsync, rename), so a failed or
 * interrupted run never leaves a half file behind.
 */
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';

import type { Terminal } from '../io/terminal.js';
import { namesStdout, openAtomicFile, type AtomicFile } from '../io/atomic-file.js';
import { describeFsError } from '../io/errno.js';
import { CliError, EXIT, OutputWriteError, StdoutClosedError, UsageError } from '../errors.js';
import type { OutputSettings } from './types.js';

export interface Sink {
  stream: Writable;
  write(chunk: string): Promise<void>;
  /** A download's bytes. Once used, do not go back to `write`/`stream`: gathered bytes are not in the stream. */
  writeBytes(chunk: Buffer): Promise<void>;
  commit(): Promise<void>;
  /** Never throws; the target is untouched. */
  abort(): Promise<void>;
  /** Bytes written cannot be taken back (stdout, an `-o` device or FIFO): a download cannot restart from zero. */
  readonly inPlace: boolean;
}

export class OutputFileError extends Error {
  readonly path: string;
  readonly code: string | undefined;

  constructor(message: string, filePath: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutputFileError';
    this.path = filePath;
    const code = (cause as { code?: unknown } | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/** A usage error (exit 2) when the path is at fault, else exit 1. */
export function outputFileCliError(err: OutputFileError): CliError {
  const message = `${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`;
  const usage = err.code !== undefined && PATH_CODES.has(err.code);
  return usage
    ? new UsageError(message, { cause: err })
    : new CliError(message, EXIT.ERROR, { code: 'output_file', cause: err });
}

/**
 * Resolves when the stream accepts more; rejects when it errors or closes while we wait (a closed pipe must not hang
 * us).
 */
export function writeChunk(stream: Writable, chunk: string | Buffer): Promise<void> {
  // An errored stream that is not destroyed (autoClose off after ENOSPC) would take the write and never drain.
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.destroyed || stream.writableEnded) {
    return Promise.reject(new Error('write after the output stream was closed'));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err?: Error | null): void => {
      if (settled) return;
      settled = true;
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    const onError = (err: Error): void => done(err);
    const onClose = (): void => done(stream.errored ?? new Error('the output stream closed early'));
    stream.on('error', onError);
    stream.on('close', onClose);
    if (stream.write(chunk)) done();
    else stream.once('drain', onDrain);
  });
}

export interface SinkOptions {
  /**
   * fsync before the rename (default true), so the file survives a power cut. False for bytes that can be
   * fetched again for free (batch downloads), as `curl -o` does: still atomic, see README Performance.
   */
  durable?: boolean;
}

/**
 * With a pager, stdout output is held and paged on commit; `stream` is then the terminal, for callers that bypass it.
 */
export async function openSink(
  io: Terminal,
  settings: Pick<OutputSettings, 'outputPath' | 'pager'>,
  options: SinkOptions = {},
): Promise<Sink> {
  const target = settings.outputPath;
  const stdoutByPath = target !== undefined && target !== '' && namesStdout(path.resolve(target));
  if (target === undefined || target === '' || target === '-' || stdoutByPath) {
    io.clearLive();
    const toStdout = (chunk: string | Buffer): Promise<void> => {
      io.clearLive();
      return writeChunk(io.stdout, chunk).catch((err: unknown) => {
        throw stdoutClosed(io) || (err as { code?: unknown } | undefined)?.code === 'EPIPE'
          ? new StdoutClosedError()
          : stdoutWriteError(err);
      });
    };
    if (settings.pager !== undefined && !stdoutByPath) {
      // One part of a screen paged once (`pageOnce`) shares the screen's output, which the screen's end commits.
      const { pagedOutput } = await import('./pager.js');
      const shared = settings.pager.shared;
      const paged =
        shared !== undefined
          ? (shared.output ??= pagedOutput(io, settings.pager, toStdout))
          : pagedOutput(io, settings.pager, toStdout);
      if (shared !== undefined)
        return {
          stream: io.stdout,
          write: paged.write,
          writeBytes: paged.write,
          commit: async () => {},
          abort: async () => {},
          inPlace: true,
        };
      return {
        stream: io.stdout,
        write: paged.write,
        writeBytes: paged.write,
        commit: paged.commit,
        abort: paged.abort,
        inPlace: true,
      };
    }
    return {
      inPlace: true,
      stream: io.stdout,
      write: toStdout,
      writeBytes: toStdout,
      commit: async () => {},
      abort: async () => {},
    };
  }
  return openFileSink(path.resolve(target), target, options.durable ?? true);
}

/**
 * Standard output's reader went away (EPIPE): a paging run asks before buying each page, so it buys none nobody reads.
 */
export function stdoutClosed(io: Pick<Terminal, 'stdout'>): boolean {
  const errored = io.stdout.errored as { code?: unknown } | null | undefined;
  return errored?.code === 'EPIPE' || (io.stdout.destroyed && !errored);
}

/**
 * Resolves once standard output has taken what the printer was given: its batched lines handed over (they
 * are flushed when the loop turns, line-batch.ts) and no write waiting for the reader ('drain'). False when
 * nobody reads any more. A paging run asks it before buying the next page, so it buys ahead only while the
 * reader keeps up: a reader gone (`| head -1`) stops the spending at the page being written.
 */
export async function stdoutTaken(io: Pick<Terminal, 'stdout'>, signal?: AbortSignal): Promise<boolean> {
  const out = io.stdout;
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (stdoutClosed(io)) return false;
    if (!out.writableNeedDrain || signal?.aborted) return true;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        out.off('drain', done);
        out.off('close', done);
        out.off('error', done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
      out.on('error', done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * For a cursor-paged run printing to `settings`: awaited before the next page is asked for, it waits until
 * standard output has taken the last one, and ends the run quietly (StdoutClosedError) when nobody reads any
 * more. Nothing to wait for when the output goes to a file or is held to the end (a terminal table, the pager).
 */
export function readerPace(
  io: Pick<Terminal, 'stdout' | 'stdoutIsTTY'>,
  settings: Pick<OutputSettings, 'outputPath' | 'pager' | 'format'>,
  signal?: AbortSignal,
): () => Promise<void> {
  const toStdout = !settings.outputPath || settings.outputPath === '-';
  const held = settings.pager !== undefined || (settings.format === 'table' && io.stdoutIsTTY);
  if (!toStdout || held) return async () => {};
  return async () => {
    if (!(await stdoutTaken(io, signal))) throw new StdoutClosedError();
  };
}

/**
 * The bytes standard output has been handed so far (a socket's, a pipe's or a file's count), or undefined where the
 * stream keeps none.
 */
export function stdoutBytes(io: Pick<Terminal, 'stdout'>): number | undefined {
  const n = (io.stdout as { bytesWritten?: unknown }).bytesWritten;
  return typeof n === 'number' ? n : undefined;
}

/** A reader that went away (`| head`) is not this: the process ends quietly on EPIPE (`run` in main.ts). */
function stdoutWriteError(err: unknown): OutputWriteError {
  return new OutputWriteError(`Cannot write to standard output: ${describeFsError(err, 'write')}.`, {
    hint: 'The output is incomplete. Write to a file with -o (it is only put in place when complete) or free some space, then run the command again.',
    cause: err,
  });
}

const PATH_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

function fileWriteError(shown: string, err: unknown, inPlace: boolean): OutputWriteError | OutputFileError {
  if (err instanceof OutputWriteError || err instanceof OutputFileError) return err;
  if (inPlace) {
    return new OutputWriteError(`Cannot write ${shown}: ${describeFsError(err, 'write')}.`, {
      hint: `The output to ${shown} is incomplete. Choose another -o path, then run the command again.`,
      cause: err,
    });
  }
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && PATH_CODES.has(code) && code !== 'EROFS') {
    // EROFS mid-write is the disk's failure (exit 1), though at open time it is the path's (exit 2).
    return new OutputFileError(`cannot write ${shown}: ${describeFsError(err, 'write')}`, shown, err);
  }
  return new OutputWriteError(`Cannot write ${shown}: ${describeFsError(err, 'write')}.`, {
    hint: `Nothing was written to ${shown} (an existing file is unchanged). Free some space or choose another -o path, then run the command again.`,
    cause: err,
  });
}

const WRITE_BATCH_BYTES = 1024 * 1024;
const BACKGROUND_SYNC_BYTES = 64 * 1024 * 1024;

async function writeAll(handle: FileHandle, buffers: Buffer[], total: number): Promise<void> {
  const { bytesWritten } = await handle.writev(buffers);
  if (bytesWritten >= total) return;
  const rest = Buffer.concat(buffers).subarray(bytesWritten);
  for (let done = 0; done < rest.length; ) done += (await handle.write(rest, done, rest.length - done)).bytesWritten;
}

/**
 * Text written as text: the handle copies it outside the JS heap for the write and frees it when done. Through the
 * stream each chunk became a Buffer that lived as long as its write, was promoted, and was freed only by a full
 * collection: over a long run the whole output piled up that way (README, Performance).
 */
async function writeText(handle: FileHandle, text: string): Promise<void> {
  const { bytesWritten } = await handle.write(text, null, 'utf8');
  if (bytesWritten >= Buffer.byteLength(text)) return;
  // A short write (a pipe, a device): the rest as bytes.
  const rest = Buffer.from(text, 'utf8').subarray(bytesWritten);
  for (let done = 0; done < rest.length; ) done += (await handle.write(rest, done, rest.length - done)).bytesWritten;
}

async function openFileSink(target: string, shown: string, durableAsked: boolean): Promise<Sink> {
  let file: AtomicFile;
  try {
    file = await openAtomicFile(target, { durable: durableAsked });
  } catch (err) {
    throw new OutputFileError(`cannot write ${shown}: ${describeFsError(err, 'write')}`, shown, err);
  }
  const { handle, inPlace } = file;
  // A device or a FIFO has nothing to flush to disk (fsync fails on them).
  const durable = durableAsked && !inPlace;
  // A short queue: a chunk that waits through two young-generation collections is freed only by a full one
  // (README, Performance: the file sink's buffer).
  const stream = file.createWriteStream({ encoding: 'utf8', highWaterMark: 256 * 1024 });
  stream.on('error', () => {});
  let state: 'open' | 'committed' | 'aborted' = 'open';
  // writeBytes: at most one write in flight, so memory stays flat.
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  let writing: Promise<void> | undefined;
  let unsynced = 0;
  let syncing: Promise<void> | undefined;
  let bytesError: unknown;

  const flushGathered = async (): Promise<void> => {
    await writing;
    if (bytesError !== undefined) throw bytesError;
    if (gatheredBytes === 0) return;
    const batch = gathered;
    const size = gatheredBytes;
    gathered = [];
    gatheredBytes = 0;
    writing = writeAll(handle, batch, size)
      .then(() => {
        unsynced += size;
        if (!durable || unsynced < BACKGROUND_SYNC_BYTES || syncing !== undefined) return;
        // Flushed while the transfer goes on, so the fsync before the rename has only the tail left.
        unsynced = 0;
        syncing = handle
          .datasync()
          .catch((err: unknown) => {
            bytesError ??= err;
          })
          .finally(() => {
            syncing = undefined;
          });
      })
      .catch((err: unknown) => {
        bytesError ??= err;
      })
      .finally(() => {
        writing = undefined;
      });
  };

  /** What went through `stream` is on its way to the file: direct writes come after it. */
  const streamWritten = (): Promise<void> =>
    new Promise<void>((resolve, reject) =>
      stream.write(Buffer.alloc(0), (err) => (err ? reject(fileWriteError(shown, err, inPlace)) : resolve())),
    );

  const cleanup = async (): Promise<void> => {
    await writing;
    await syncing;
    await file.abort();
  };

  return {
    inPlace,
    stream,
    // One text write in flight (the next line batch is made meanwhile), after whatever went through `stream`.
    async write(chunk) {
      if (state !== 'open') throw fileWriteError(shown, new Error('write after the output stream was closed'), inPlace);
      if (stream.writableLength > 0) await streamWritten();
      while (writing !== undefined) await writing;
      if (bytesError !== undefined) throw fileWriteError(shown, bytesError, inPlace);
      writing = writeText(handle, chunk)
        .catch((err: unknown) => {
          bytesError ??= err;
        })
        .finally(() => {
          writing = undefined;
        });
    },
    async writeBytes(chunk) {
      if (state !== 'open') throw new Error(`output ${shown} was already ${state}`);
      if (bytesError !== undefined) throw fileWriteError(shown, bytesError, inPlace);
      if (stream.writableLength > 0) await streamWritten();
      // Network chunks are gathered into larger writes, the next received while the previous is written.
      gathered.push(chunk);
      gatheredBytes += chunk.length;
      if (gatheredBytes >= WRITE_BATCH_BYTES) {
        await flushGathered().catch((err: unknown) => {
          throw fileWriteError(shown, err, inPlace);
        });
      }
    },
    async commit() {
      if (state !== 'open') throw new Error(`output ${shown} was already ${state}`);
      state = 'committed';
      try {
        await flushGathered();
        await writing;
        await syncing;
        if (bytesError !== undefined) throw bytesError;
        await new Promise<void>((resolve, reject) => {
          if (stream.errored) {
            reject(stream.errored);
            return;
          }
          stream.once('error', reject);
          stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
        });
        await file.commit();
      } catch (err) {
        await cleanup();
        throw fileWriteError(shown, err, inPlace);
      }
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await cleanup();
    },
  };
}
