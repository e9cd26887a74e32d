import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../app/context.js';
import { UsageError } from './errors.js';

/** Reads a whole file (or stdin for `-`) as UTF-8; an unreadable file is a usage error. */
export async function readAllText(ctx: Context, source: string, flag = 'input'): Promise<string> {
  if (source === '-') {
    if (ctx.io.stdinIsTTY) {
      throw new UsageError(`${flag} '-' reads standard input, but it is a terminal.`, { hint: 'Pipe the data in, or give a file.' });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(ctx.deps.cwd, source), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`Cannot read ${flag} file '${source}': ${why}.`);
  }
}

/** Reads and parses JSON from a file or stdin; malformed JSON is a usage error with its position. */
export async function readJson(ctx: Context, source: string, flag: string): Promise<unknown> {
  const text = await readAllText(ctx, source, flag);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`${flag} '${source}' is not valid JSON: ${(err as Error).message}.`);
  }
}
