/**
 * Where data goes: stdout, or a file written atomically (temporary file in the same folder, fsync,
 * rename over the target), so a failed or interrupted run never leaves a half file behind. A copy of
 * bytes the service keeps (a batch download, free to fetch again) skips the fsync: still atomic, but
 * not waiting for the disk, like `curl -o`.
 */
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';

import type { Terminal } from '../io/terminal.js';
import { namesStdout, openAtomicFile, type AtomicFile } from '../io/atomic-file.js';
import { describeFsError } from '../io/errno.js';
import { CliError, EXIT, OutputWriteError, StdoutClosedError, UsageError } from '../errors.js';
import type { OutputSettings } from './types.js';

export { formatFromPath } from './format-from-path.js';

/** An open destination for data. Write through `write` (honours backpressure) or `stream`. */
export interface Sink {
  stream: Writable;
  /** Writes a chunk and resolves once the stream can take more (waits for 'drain'). */
  write(chunk: string): Promise<void>;
  /**
   * Writes raw bytes (a download). To a file, chunks are gathered into 1 MB writes made while the next
   * chunks arrive, and flushed to disk in the background as the file grows, so `commit` has little left
   * to sync; to stdout it is `write` with backpressure. Rejects with the system error of a failed write.
   * Once used, do not go back to `write`/`stream` before `commit`: gathered bytes are not in the stream.
   */
  writeBytes(chunk: Buffer): Promise<void>;
  /** Finishes the output: for a file, flush, fsync (when durable) and rename over the target. stdout is left open. */
  commit(): Promise<void>;
  /** Gives up: for a file, close and delete the temporary file; the target is untouched. Never throws. */
  abort(): Promise<void>;
  /**
   * True when bytes written cannot be taken back: stdout, or an `-o` device, FIFO or descriptor path
   * written through in place. A download then cannot restart from zero in a fresh file.
   */
  readonly inPlace: boolean;
}

/** An output file that could not be opened, written or put in place; the message names the path. */
export class OutputFileError extends Error {
  readonly path: string;
  /** The system error code (`EACCES`, `ENOENT`...) when there was one. */
  readonly code: string | undefined;

  constructor(message: string, filePath: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutputFileError';
    this.path = filePath;
    const code = (cause as { code?: unknown } | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * The typed error of an output file that could not be opened or put in place, as the user sees it: a
 * usage error (exit 2) when the path is at fault (no such folder, no permission, a directory in the
 * way, a read-only file system), else exit 1. The one mapping, for main and for commands that attach
 * a stop report to it.
 */
export function outputFileCliError(err: OutputFileError): CliError {
  const message = `${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`;
  const usage = err.code !== undefined && PATH_CODES.has(err.code);
  return usage ? new UsageError(message, { cause: err }) : new CliError(message, EXIT.ERROR, { code: 'output_file', cause: err });
}

/**
 * Writes a chunk to a stream, resolving when the stream accepts more: after 'drain' when its buffer
 * is full. Rejects when the stream errors or closes while we wait (a closed pipe must not hang us).
 */
export function writeChunk(stream: Writable, chunk: string | Buffer): Promise<void> {
  // An errored stream that is not destroyed (a file stream with autoClose off after ENOSPC) would
  // take the write and never drain: the error is the answer.
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
   * fsync the file before the rename (default true), so it survives a power cut as well as a failed
   * run. False for bytes that can be fetched again for free (batch downloads): waiting for the disk to
   * take 1 GB doubled a download's time here (disk flush speed varied 0.3-2 GB/s), and `curl -o`,
   * `wget` and `gh` do not wait either. Either way a failed or interrupted run leaves no half file; only
   * after a power cut can an unsynced file turn out empty or short (fetch it again).
   */
  durable?: boolean;
}

/**
 * Opens the destination of data. With `settings.outputPath`, data goes to a temporary file
 * `.<name>.<pid>.<random>.tmp` beside the target; `commit()` flushes, fsyncs (unless `durable` is
 * false) and renames it over the target (keeping an existing target's permissions); `abort()` deletes
 * it and leaves any existing target as it was. Without an output path the sink is `io.stdout`, which
 * commit and abort leave open. Throws `OutputFileError` (message names the path) when the file cannot
 * be created. With `settings.pager` (a terminal that pages), stdout output is held and paged on commit;
 * `stream` is then the terminal itself, which only callers that bypass the pager may use.
 */
export async function openSink(io: Terminal, settings: Pick<OutputSettings, 'outputPath' | 'pager'>, options: SinkOptions = {}): Promise<Sink> {
  const target = settings.outputPath;
  // `-o /dev/stdout` is stdout itself (never paged: -o was given).
  const stdoutByPath = target !== undefined && target !== '' && namesStdout(path.resolve(target));
  if (target === undefined || target === '' || target === '-' || stdoutByPath) {
    // The wait spinner (stderr, same screen) is erased before any data, also for users of `stream`.
    io.clearLive();
    const toStdout = (chunk: string | Buffer): Promise<void> => {
      io.clearLive();
      return writeChunk(io.stdout, chunk).catch((err: unknown) => {
        throw stdoutClosed(io) || (err as { code?: unknown } | undefined)?.code === 'EPIPE' ? new StdoutClosedError() : stdoutWriteError(err);
      });
    };
    if (settings.pager !== undefined && !stdoutByPath) {
      // A terminal with a pager: the output is held until complete, then paged (see pager.ts). One part
      // of a screen paged once (`pageOnce`) shares the screen's paged output, which the screen's end commits.
      const { pagedOutput } = await import('./pager.js');
      const shared = settings.pager.shared;
      const paged = shared !== undefined ? (shared.output ??= pagedOutput(io, settings.pager, toStdout)) : pagedOutput(io, settings.pager, toStdout);
      if (shared !== undefined) return { stream: io.stdout, write: paged.write, writeBytes: paged.write, commit: async () => {}, abort: async () => {}, inPlace: true };
      return { stream: io.stdout, write: paged.write, writeBytes: paged.write, commit: paged.commit, abort: paged.abort, inPlace: true };
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
 * Standard output's reader went away (EPIPE: `| head -1`, a closed pipe): a paging run asks before
 * buying each page, so that it buys none nobody will read. False while the stream still takes data.
 */
export function stdoutClosed(io: Pick<Terminal, 'stdout'>): boolean {
  const errored = io.stdout.errored as { code?: unknown } | null | undefined;
  return errored?.code === 'EPIPE' || (io.stdout.destroyed && !errored);
}

/**
 * A failed write to stdout (`> /dev/full`, a full disk behind a redirect, an I/O error): exit 1 with
 * the system's words. A reader that went away (`| head`, a pager quit early) is not reported here:
 * the process ends quietly on EPIPE (see `run` in main.ts).
 */
function stdoutWriteError(err: unknown): OutputWriteError {
  return new OutputWriteError(`Cannot write to standard output: ${describeFsError(err, 'write')}.`, {
    hint: 'The output is incomplete. Write to a file with -o (it is only put in place when complete) or free some space, then run the command again.',
    cause: err,
  });
}

/** System errors that mean the path is at fault (a usage error, exit 2), not the disk. */
const PATH_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS']);

/**
 * A failed write of an `-o` file after it was opened: exit 1 (the disk is full, an I/O error...), or
 * the path's own problem (`OutputFileError`, a usage error: a directory in the way at the rename). The
 * temporary file is removed, the target untouched.
 */
function fileWriteError(shown: string, err: unknown, inPlace: boolean): OutputWriteError | OutputFileError {
  if (err instanceof OutputWriteError || err instanceof OutputFileError) return err;
  if (inPlace) {
    // A device or FIFO written through (as stdout is): what was written stays written.
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

/** `writeBytes` gathers chunks into writes of this size (1 MB measured fastest: 256 KB, 512 KB, 2 MB were slower). */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** How many bytes `writeBytes` writes before it flushes them to disk in the background. */
const BACKGROUND_SYNC_BYTES = 64 * 1024 * 1024;

/** Writes every byte of `buffers` at the file's current position (a short write is continued). */
async function writeAll(handle: FileHandle, buffers: Buffer[], total: number): Promise<void> {
  const { bytesWritten } = await handle.writev(buffers);
  if (bytesWritten >= total) return;
  const rest = Buffer.concat(buffers).subarray(bytesWritten);
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
  // A short queue (256 KB): each queued chunk is a Buffer, and one that waits through two young-generation
  // collections is freed only by a full one. csv-stringify's garbage makes young collections frequent, and
  // with a 1 MB queue tens of MB of written chunks piled up (see README, Performance).
  const stream = file.createWriteStream({ encoding: 'utf8', highWaterMark: 256 * 1024 });
  // Errors surface through write/commit; this listener keeps an error from crashing the process.
  stream.on('error', () => {});
  let state: 'open' | 'committed' | 'aborted' = 'open';
  // writeBytes: chunks gathered for the next write, the write in flight (at most one, so memory stays
  // ~2 MB), bytes written since the last background flush, that flush, and the first failure of either.
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  let writing: Promise<void> | undefined;
  let unsynced = 0;
  let syncing: Promise<void> | undefined;
  let bytesError: unknown;

  /** Starts writing what is gathered once the previous write is done; resolves when it has started. */
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
        // Flush what is written so far while the transfer goes on: the fsync before the rename then has
        // only the tail left (one fsync of 1 GB at the end took ~0.4 s here).
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

  const cleanup = async (): Promise<void> => {
    await writing;
    await syncing;
    await file.abort();
  };

  return {
    inPlace,
    stream,
    write: (chunk) =>
      writeChunk(stream, chunk).catch((err: unknown) => {
        throw fileWriteError(shown, err, inPlace);
      }),
    async writeBytes(chunk) {
      if (state !== 'open') throw new Error(`output ${shown} was already ${state}`);
      if (bytesError !== undefined) throw fileWriteError(shown, bytesError, inPlace);
      // Bytes given to `write` go first (they are queued in the stream).
      if (stream.writableLength > 0) {
        await new Promise<void>((resolve, reject) => stream.write(Buffer.alloc(0), (err) => (err ? reject(fileWriteError(shown, err, inPlace)) : resolve())));
      }
      // Network chunks (~64 KB) are gathered into 1 MB writes, and the next 1 MB is received while the
      // previous one is written: the stream's one-chunk-at-a-time writes ran at half of curl's rate.
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
          // The callback gets the error of a write that failed while the stream was being ended.
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
