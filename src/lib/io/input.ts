// The one input opener (a file, or stdin for `-`): unreadable input is refused the same way, before anything is sent.
import { open } from 'node:fs/promises';
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
  if (source === '-') {
    if (ports.stdinIsTTY) {
      throw new UsageError(`${flag} '-' reads standard input, but it is a terminal.`, {
        hint: `Pipe the ${options.kind ?? 'data'} in, or give a file.`,
      });
    }
    return ports.stdin;
  }
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
  // 16 KB reads, not 64 KB: each read becomes rows at once (~600 to 64 KB of CSV) that wait for the run, long
  // enough to be promoted out of the young generation; smaller reads cut the bytes promoted (README, Performance).
  return handle.createReadStream({ highWaterMark: 16 * 1024 });
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
