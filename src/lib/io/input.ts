/**
 * The one input opener: a file named by the user, or standard input for `-`. Every command that reads
 * user input (CSV for bulk and batch work, JSON bodies and filters, lists) opens it here, so a missing
 * file, a directory or a terminal on stdin is refused the same way, and before anything is sent.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { describeFsError } from './errno.js';

/** What opening input needs: the folder relative paths start from, and standard input. */
export interface InputPorts {
  cwd: string;
  stdin: Readable;
  stdinIsTTY: boolean;
}

export interface OpenInputOptions {
  /** What the user should pipe in, for the hint when stdin is a terminal (`data`, `CSV`). */
  kind?: string | undefined;
}

/**
 * Opens `source` as a byte stream: standard input for `-` (refused when it is a terminal, where the
 * command would wait for typing), else a file resolved against `ports.cwd`. The file is opened (and a
 * directory refused) before this resolves, so unreadable input is a `UsageError` (exit 2) naming the
 * `flag`: "Cannot read <flag> file '<source>': <why>."
 */
export async function openInput(ports: InputPorts, source: string, flag: string, options: OpenInputOptions = {}): Promise<Readable> {
  if (source === '-') {
    if (ports.stdinIsTTY) {
      throw new UsageError(`${flag} '-' reads standard input, but it is a terminal.`, { hint: `Pipe the ${options.kind ?? 'data'} in, or give a file.` });
    }
    return ports.stdin;
  }
  const unreadable = (err: unknown): UsageError => new UsageError(`Cannot read ${flag} file '${source}': ${describeFsError(err)}.`);
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
  return handle.createReadStream();
}

/** Reads all of `source` (a file, or stdin for `-`) as UTF-8; unreadable input is a usage error. */
export async function readInputText(ports: InputPorts, source: string, flag: string): Promise<string> {
  const stream = await openInput(ports, source, flag);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  } catch (err) {
    throw new UsageError(`Cannot read ${flag} ${source === '-' ? 'from standard input' : `file '${source}'`}: ${describeFsError(err)}.`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and parses JSON from a file or stdin (a leading BOM is ignored); malformed JSON is a usage error with its position. */
export async function readInputJson(ports: InputPorts, source: string, flag: string): Promise<unknown> {
  const text = await readInputText(ports, source, flag);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`${flag} '${source}' is not valid JSON: ${(err as Error).message}.`);
  }
}
