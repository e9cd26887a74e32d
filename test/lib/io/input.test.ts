import { chmodSync, mkdirSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import {
  openInput,
  openInputChunks,
  readInputJson,
  readInputText,
  type InputPorts,
} from '../../../src/lib/io/input.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('creators-input-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ports = (stdin = '', stdinIsTTY = false): InputPorts => ({
  cwd: dir,
  stdin: Readable.from([Buffer.from(stdin)]),
  stdinIsTTY,
});

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

/** The usage error a call rejects with (the test fails if it resolves or throws something else). */
async function usageError(p: Promise<unknown>): Promise<UsageError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  expect((err as UsageError).exitCode).toBe(2);
  return err as UsageError;
}

describe('openInput', () => {
  it('reads a file 16 KB at a time (each read becomes rows that wait for the run: bounded)', async () => {
    const body = 'handle\n'.repeat(20_000);
    writeFileSync(join(dir, 'big.csv'), body);
    const sizes: number[] = [];
    let out = '';
    for await (const chunk of await openInput(ports(), 'big.csv', '--input')) {
      sizes.push((chunk as Buffer).length);
      out += String(chunk);
    }
    expect(out).toBe(body);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16 * 1024);
  });

  it("'-' is standard input", async () => {
    const p = ports('piped\n');
    const stream = await openInput(p, '-', '--input');
    expect(stream).toBe(p.stdin);
    expect(await text(stream)).toBe('piped\n');
  });

  it("refuses '-' when standard input is a terminal, naming the flag, with a hint for what to pipe", async () => {
    const err = await usageError(openInput(ports('', true), '-', '--input', { kind: 'CSV' }));
    expect(err.message).toBe("--input '-' reads standard input, but it is a terminal.");
    expect(err.hint).toBe('Pipe the CSV in, or give a file.');
    expect((await usageError(openInput(ports('', true), '-', '--body'))).hint).toBe(
      'Pipe the data in, or give a file.',
    );
  });

  it('opens a file relative to cwd', async () => {
    writeFileSync(join(dir, 'in.csv'), 'a,b\n');
    expect(await text(await openInput(ports(), 'in.csv', '--input'))).toBe('a,b\n');
  });

  it('a missing file, a directory and an unreadable file are usage errors before anything is read', async () => {
    expect((await usageError(openInput(ports(), 'nope.csv', '--input'))).message).toBe(
      "Cannot read --input file 'nope.csv': no such file.",
    );
    mkdirSync(join(dir, 'folder'));
    expect((await usageError(openInput(ports(), 'folder', 'input'))).message).toBe(
      "Cannot read input file 'folder': it is a directory.",
    );
    const locked = join(dir, 'locked.csv');
    writeFileSync(locked, 'x');
    chmodSync(locked, 0o000);
    const opened = await openInput(ports(), 'locked.csv', '--input').then(
      (s) => (s.destroy(), 'opened'),
      (e: unknown) => e,
    );
    // root reads anything; everyone else gets the usage error.
    if (opened !== 'opened')
      expect((opened as UsageError).message).toBe("Cannot read --input file 'locked.csv': permission denied.");
  });
});

describe('openInputChunks', () => {
  it('reads a file of any size into the same two buffers, 16 KB at a time, every byte in order', async () => {
    const body = Array.from({ length: 40_000 }, (_, i) => `creator_${i},é\n`).join('');
    writeFileSync(join(dir, 'big.csv'), body);
    const seen = new Set<ArrayBufferLike>();
    const parts: string[] = [];
    let chunks = 0;
    for await (const chunk of await openInputChunks(ports(), 'big.csv', '--input')) {
      chunks++;
      seen.add(chunk.buffer);
      expect(chunk.length).toBeLessThanOrEqual(16 * 1024);
      parts.push(chunk.toString('latin1'));
    }
    expect(chunks).toBeGreaterThan(30);
    expect(seen.size).toBe(2);
    expect(Buffer.from(parts.join(''), 'latin1').toString('utf8')).toBe(body);
  });

  it('closes the file when the reader stops early, and refuses what openInput refuses', async () => {
    writeFileSync(join(dir, 'in.csv'), 'x'.repeat(100_000));
    const chunks = await openInputChunks(ports(), 'in.csv', '--input');
    for await (const _ of chunks) break;
    // A closed handle: the file can be removed and its descriptor is gone from the process.
    const open = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(open).not.toContain(join(dir, 'in.csv'));
    expect((await usageError(openInputChunks(ports(), 'nope.csv', '--input'))).message).toBe(
      "Cannot read --input file 'nope.csv': no such file.",
    );
    const p = ports('piped\n');
    expect(await openInputChunks(p, '-', '--input')).toBe(p.stdin);
    expect((await usageError(openInputChunks(ports('', true), '-', '--input', { kind: 'CSV' }))).hint).toBe(
      'Pipe the CSV in, or give a file.',
    );
  });
});

describe('readInputText and readInputJson', () => {
  it('read a whole file or stdin; JSON ignores a BOM and names the flag when malformed', async () => {
    writeFileSync(join(dir, 'b.json'), '\uFEFF{"a":1}');
    expect(await readInputJson(ports(), 'b.json', '--body')).toEqual({ a: 1 });
    expect(await readInputText(ports('from stdin'), '-', '--file')).toBe('from stdin');
    writeFileSync(join(dir, 'bad.json'), '{');
    expect((await usageError(readInputJson(ports(), 'bad.json', '--body'))).message).toMatch(
      /^--body 'bad.json' is not valid JSON: /,
    );
    expect((await usageError(readInputText(ports(), 'gone.json', '--body'))).message).toBe(
      "Cannot read --body file 'gone.json': no such file.",
    );
  });
});
