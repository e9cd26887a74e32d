import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  namesStdout,
  openAtomicFile,
  removeStaleTemps,
  writeFileAtomic,
  writesInPlace,
} from '../../../src/lib/io/atomic-file.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('creators-atomic-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('openAtomicFile', () => {
  it('writes to a hidden temp file beside the target; commit renames it into place', async () => {
    const target = join(dir, 'out.csv');
    const file = await openAtomicFile(target);
    expect(file.target).toBe(target);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readdirSync(dir)[0]).toMatch(new RegExp(`^\\.out\\.csv\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    await file.handle.write('a,b\n');
    expect(() => readFileSync(target)).toThrow(/ENOENT/);
    await file.commit();
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(target, 'utf8')).toBe('a,b\n');
    await expect(file.commit()).rejects.toThrow(/already committed/);
  });

  it('abort removes the temp file and leaves an existing target as it was', async () => {
    const target = join(dir, 'out.csv');
    writeFileSync(target, 'previous');
    const file = await openAtomicFile(target, { durable: false });
    await file.handle.write('new');
    await file.abort();
    await file.abort(); // twice is harmless
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(target, 'utf8')).toBe('previous');
  });

  it('a commit that fails (the target is a directory) leaves no temp file and rejects with the system error', async () => {
    const target = join(dir, 'taken');
    mkdirSync(target);
    const file = await openAtomicFile(target);
    await file.handle.write('data');
    const err = await file.commit().catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST)$/);
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(statSync(target).isDirectory()).toBe(true);
  });

  it('cannot be opened in a missing folder (ENOENT), and nothing is created', async () => {
    const err = await openAtomicFile(join(dir, 'no', 'out.csv')).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the permissions of the target it replaces', async () => {
    const target = join(dir, 'out.csv');
    writeFileSync(target, 'old');
    chmodSync(target, 0o640);
    const file = await openAtomicFile(target);
    await file.handle.write('new');
    await file.commit();
    expect(mode(target)).toBe(0o640);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('a new target is private (0600), and so is the temporary file while it is written; a 0644 target stays 0644', async () => {
    const fresh = join(dir, 'new.csv');
    const file = await openAtomicFile(fresh);
    expect(mode(file.tempPath)).toBe(0o600);
    await file.handle.write('paid rows');
    await file.commit();
    expect(mode(fresh)).toBe(0o600);

    const shared = join(dir, 'shared.csv');
    writeFileSync(shared, 'old');
    chmodSync(shared, 0o644);
    const again = await openAtomicFile(shared);
    expect(mode(again.tempPath)).toBe(0o600);
    await again.handle.write('new');
    await again.commit();
    expect(mode(shared)).toBe(0o644);
  });

  it("removes the same target's temporary files left by dead processes, and only those", async () => {
    const target = join(dir, 'out.csv');
    // A pid that existed and has exited: what `kill -9` or a power cut leaves behind.
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const stale = join(dir, `.out.csv.${dead}.0badf00d.tmp`);
    const live = join(dir, `.out.csv.${process.ppid}.0123abcd.tmp`);
    const otherTarget = join(dir, `.other.csv.${dead}.0badf00d.tmp`);
    for (const p of [stale, live, otherTarget]) writeFileSync(p, 'paid rows');
    const file = await openAtomicFile(target);
    await file.handle.write('x');
    await file.commit();
    expect(readdirSync(dir).sort()).toEqual(
      ['.other.csv.' + dead + '.0badf00d.tmp', `.out.csv.${process.ppid}.0123abcd.tmp`, 'out.csv'].sort(),
    );
  });
});

describe('writeFileAtomic', () => {
  it('replaces the whole content; with mode, the file gets that mode whatever the target had', async () => {
    const target = join(dir, 'state.json');
    await writeFileAtomic(target, '{"a":1}\n', { mode: 0o600 });
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(mode(target)).toBe(0o600);
    chmodSync(target, 0o644);
    await writeFileAtomic(target, Buffer.from('{"a":2}\n'), { mode: 0o600, durable: false });
    expect(readFileSync(target, 'utf8')).toBe('{"a":2}\n');
    expect(mode(target)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a failure in the middle leaves no file and the existing target intact', async () => {
    const target = join(dir, 'state.json');
    writeFileSync(target, 'old');
    // Not string or bytes: the write fails after the temporary file was created.
    const err = await writeFileAtomic(target, 42 as unknown as string).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(readFileSync(target, 'utf8')).toBe('old');
  });
});

describe('writesInPlace: the one rule for targets that are not regular files', () => {
  it('a missing path, a regular file, a symbolic link to one and a folder are not; a FIFO, a device and descriptor paths are', () => {
    writeFileSync(join(dir, 'f'), 'x');
    symlinkSync(join(dir, 'f'), join(dir, 'link'));
    mkdirSync(join(dir, 'd'));
    execFileSync('mkfifo', [join(dir, 'p')]);
    expect(writesInPlace(join(dir, 'missing'))).toBe(false);
    expect(writesInPlace(join(dir, 'f'))).toBe(false);
    expect(writesInPlace(join(dir, 'link'))).toBe(false);
    expect(writesInPlace(join(dir, 'd'))).toBe(false);
    expect(writesInPlace(join(dir, 'p'))).toBe(true);
    expect(writesInPlace('/dev/null')).toBe(true);
    // Whatever the descriptor leads to (a regular file after `> out`): the shell's redirect is the destination.
    for (const p of ['/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/63', '/proc/self/fd/3', '/proc/4242/fd/1'])
      expect(writesInPlace(p), p).toBe(true);
    expect(writesInPlace('/dev/fdx/1')).toBe(false);
    // Standard output by path is stdout itself (a socket pair under a Node parent: no path opens it).
    for (const p of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1', `/proc/${process.pid}/fd/1`])
      expect(namesStdout(p), p).toBe(true);
    for (const p of ['/dev/stderr', '/dev/fd/10', '/proc/1/fd/1', join(dir, 'f')])
      expect(namesStdout(p), p).toBe(false);
  });

  it('a temporary file whose pid now belongs to a process started after it was written is stale (a reused pid)', async () => {
    const target = join(dir, 'out.csv');
    // pid 1 runs, but it started after 2000-01-01, when this temporary file was last written.
    const stale = join(dir, '.out.csv.1.0123abcd.tmp');
    writeFileSync(stale, 'x');
    utimesSync(stale, new Date('2000-01-01T00:00:00Z'), new Date('2000-01-01T00:00:00Z'));
    const fresh = join(dir, '.out.csv.1.4567abcd.tmp');
    writeFileSync(fresh, 'x');
    const removed = await removeStaleTemps(target);
    if (statSync('/proc/1/stat', { throwIfNoEntry: false }) === undefined) return; // no /proc: pid only
    expect(removed).toEqual([stale]);
    expect(readdirSync(dir)).toEqual(['.out.csv.1.4567abcd.tmp']);
  });
});
