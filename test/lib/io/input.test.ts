import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { openInput, readInputJson, readInputText, type InputPorts } from '../../../src/lib/io/input.js';
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
