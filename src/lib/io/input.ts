// The one input opener (a file, or stdin for `-`): unreadable input is refused the same way, before anything is sent.
import { open, type FileHandle, type FileReadResult } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { describeFsError } from './errno.js';

export interface InputPorts {
  cwd: string;
  stdin: Readable;
  stdinIsTTY: boolean;
}

export interface OpenInputOptions {
  kind?: string | undefined;
}

/** Stdin for `-`, refused when it is a terminal (it would wait for typing); a file is opened before this resolves. */
export async function openInput(
  ports: InputPorts,
  source: string,
  flag: string,
  options: OpenInputOptions = {},
): Promise<Readable> {
  if (source === '-') return stdinOf(ports, flag, options);
  // 16 KB reads, not 64 KB: each read becomes rows at once (~600 to 64 KB of CSV) that wait for the run, long
  // enough to be promoted out of the young generation; smaller reads cut the bytes promoted (README, Performance).
  return (await openFile(ports, source, flag)).createReadStream({ highWaterMark: READ_BYTES });
}

/**
 * The input's bytes for a reader done with each chunk before it asks for the next (a `for await` that decodes it):
 * a file is read into two buffers in turn, one filled while the other is read. A new buffer a read lives through
 * young-generation collections, is promoted and freed only by a full one: the bytes of a whole input did pile up
 * that way (README, Performance). Stdin as `openInput` gives it.
 */
export async function openInputChunks(
  ports: InputPorts,
  source: string,
  flag: string,
  options: OpenInputOptions = {},
): Promise<AsyncIterable<Buffer>> {
  if (source === '-') return stdinOf(ports, flag, options);
  return reusedReads(await openFile(ports, source, flag));
}

const READ_BYTES = 16 * 1024;

async function* reusedReads(handle: FileHandle): AsyncGenerator<Buffer> {
  const buffers = [Buffer.allocUnsafeSlow(READ_BYTES), Buffer.allocUnsafeSlow(READ_BYTES)] as const;
  let next: Promise<FileReadResult<Buffer>> | undefined;
  try {
    let turn = 0;
    next = handle.read(buffers[0], 0, READ_BYTES, null);
    for (;;) {
      const { bytesRead, buffer } = await next;
      next = undefined;
      if (bytesRead === 0) return;
      turn ^= 1;
      next = handle.read(buffers[turn], 0, READ_BYTES, null);
      yield bytesRead === READ_BYTES ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    // A read under way when the reader stopped: its end, or its error, is nobody's now.
    await next?.catch(() => undefined);
    await handle.close();
  }
}

function stdinOf(ports: InputPorts, flag: string, options: OpenInputOptions): Readable {
  if (ports.stdinIsTTY) {
    throw new UsageError(`${flag} '-' reads standard input, but it is a terminal.`, {
      hint: `Pipe the ${options.kind ?? 'data'} in, or give a file.`,
    });
  }
  return ports.stdin;
}

async function openFile(ports: InputPorts, source: string, flag: string): Promise<FileHandle> {
  const unreadable = (err: unknown): UsageError =>
    new UsageError(`Cannot read ${flag} file '${source}': ${describeFsError(err)}.`);
  const handle = await open(resolve(ports.cwd, source), 'r').catch((err: unknown) => {
    throw unreadable(err);
  });
  // Opening a directory for reading succeeds on Linux; only the first read would fail.
  const info = await handle.stat().catch((err: unknown) => {
    void handle.close();
    throw unreadable(err);
  });
  if (info.isDirectory()) {
    await handle.close();
    throw unreadable(Object.assign(new Error('it is a directory'), { code: 'EISDIR' }));
  }
  return handle;
}

export async function readInputText(ports: InputPorts, source: string, flag: string): Promise<string> {
  const stream = await openInput(ports, source, flag);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  } catch (err) {
    throw new UsageError(
      `Cannot read ${flag} ${source === '-' ? 'from standard input' : `file '${source}'`}: ${describeFsError(err)}.`,
    );
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readInputJson(ports: InputPorts, source: string, flag: string): Promise<unknown> {
  const text = await readInputText(ports, source, flag);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`${flag} '${source}' is not valid JSON: ${(err as Error).message}.`);
  }
}
