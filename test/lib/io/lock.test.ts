import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHolder, LockPathTaken, tryLock } from '../../../src/lib/io/lock.js';
import { bootId, processAlive, processIdentity, processStart } from '../../../src/lib/io/process-alive.js';
import { tempDir } from '../../helpers/temp.js';

/** The pid of a process that has ended (so no process has it, barring reuse in the meantime). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('tryLock', () => {
  it('takes a free lock, refuses a held one naming the holder, and is free again once released', () => {
    const path = join(tempDir(), 'x.lock');
    const first = tryLock(path);
    if (!first.acquired) throw new Error('expected the lock');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    const second = tryLock(path);
    expect(second.acquired).toBe(false);
    if (second.acquired) return;
    expect(second.holder?.pid).toBe(process.pid);
    expect(describeHolder(second.holder)).toMatch(new RegExp(`^process ${process.pid} on this machine, since \\d{4}-`));
    first.lock.release();
    first.lock.release();
    expect(existsSync(path)).toBe(false);
    const third = tryLock(path);
    expect(third.acquired).toBe(true);
    if (third.acquired) third.lock.release();
  });

  it('takes over a lock whose process is gone (kill -9), leaving no stray file', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    const pid = deadPid();
    writeFileSync(path, JSON.stringify({ id: 'old', pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    if (got.acquired) got.lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock whose holder was killed and not reaped (a zombie): it runs nothing and holds nothing', async () => {
    const path = join(tempDir(), 'x.lock');
    // The holder's parent execs into a sleep that never waits for it, so after kill -9 it stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = await new Promise<number>((resolve) =>
        parent.stdout.once('data', (c: Buffer) => resolve(Number(String(c).trim()))),
      );
      const { boot, start } = processIdentity(pid);
      writeFileSync(
        path,
        JSON.stringify({ id: 'held', pid, host: hostname(), since: new Date().toISOString(), boot, start }),
      );
      expect(tryLock(path).acquired).toBe(false);
      process.kill(pid, 'SIGKILL');
      const state = (): string | undefined => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      expect(processAlive(pid, { boot, start })).toBe(false);
      const got = tryLock(path);
      expect(got.acquired).toBe(true);
      if (got.acquired) got.lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('respects a live process however old its lock, and a lock from another host', () => {
    const path = join(tempDir(), 'x.lock');
    // pid 1 is always alive (kill(1, 0) answers EPERM or nothing, never ESRCH).
    writeFileSync(path, JSON.stringify({ id: 'a', pid: 1, host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
    expect(tryLock(path)).toEqual({
      acquired: false,
      holder: { id: 'a', pid: 1, host: hostname(), since: '2020-01-01T00:00:00.000Z' },
    });
    writeFileSync(
      path,
      JSON.stringify({ id: 'b', pid: deadPid(), host: 'elsewhere.example', since: '2020-01-01T00:00:00.000Z' }),
    );
    const other = tryLock(path);
    expect(other.acquired).toBe(false);
    if (!other.acquired) expect(describeHolder(other.holder)).toContain('on elsewhere.example');
  });

  it('a lock file being written (unreadable, fresh) is held; the same pid not held by this process is stale', () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, '');
    expect(tryLock(path)).toEqual({ acquired: false, holder: undefined });
    // Left by an earlier process that had this pid (a restarted container): not ours, so stale.
    writeFileSync(
      path,
      JSON.stringify({ id: 'c', pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z' }),
    );
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    if (got.acquired) got.lock.release();
  });

  it('records the boot id and the start time of its process, so a reused pid can be told apart', () => {
    const path = join(tempDir(), 'x.lock');
    const got = tryLock(path);
    if (!got.acquired) throw new Error('expected the lock');
    const data = JSON.parse(readFileSync(path, 'utf8')) as { boot?: string; start?: string };
    got.lock.release();
    if (bootId() === undefined) return; // no /proc: pid only
    expect(data.boot).toBe(bootId());
    expect(data.start).toBe(processStart(process.pid));
    expect(processIdentity()).toEqual({ boot: data.boot, start: data.start });
  });

  const noProc = bootId() === undefined ? 'no /proc here: only the pid can be checked' : undefined;
  it.skipIf(noProc)(
    `a lock held by a reused pid (pid 1 after a reboot or a container restart) is stale ${noProc ? `(skipped: ${noProc})` : ''}`,
    () => {
      const dir = tempDir();
      const path = join(dir, 'x.lock');
      const old = { id: 'r', pid: 1, host: hostname(), since: '2020-01-01T00:00:00.000Z' };
      // Written before the last boot: another boot id.
      writeFileSync(path, JSON.stringify({ ...old, boot: 'another-boot-0000' }));
      let got = tryLock(path);
      expect(got.acquired).toBe(true);
      if (got.acquired) got.lock.release();
      // Same boot, but pid 1 is now a process that started at another time.
      writeFileSync(path, JSON.stringify({ ...old, boot: bootId(), start: `${Number(processStart(1)) + 12345}` }));
      got = tryLock(path);
      expect(got.acquired).toBe(true);
      if (got.acquired) got.lock.release();
      // A lock of an earlier version (pid only), last written before pid 1 started: not its holder.
      writeFileSync(path, JSON.stringify(old));
      utimesSync(path, new Date('2000-01-01T00:00:00Z'), new Date('2000-01-01T00:00:00Z'));
      got = tryLock(path);
      expect(got.acquired).toBe(true);
      if (got.acquired) got.lock.release();
      expect(readdirSync(dir)).toEqual([]);
      // The store's claims still ask with the pid alone.
      expect(processAlive(1)).toBe(true);
      expect(processAlive(deadPid())).toBe(false);
    },
  );

  it('a dangling symbolic link at the lock path holds nothing: taken over, its target never created', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    symlinkSync(join(dir, 'nowhere'), path);
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    expect(lstatSync(path).isFile()).toBe(true);
    if (got.acquired) got.lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a symbolic link to a file is not a lock either: the link goes, the file it names is untouched', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    writeFileSync(join(dir, 'precious'), 'keep me');
    symlinkSync(join(dir, 'precious'), path);
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    if (got.acquired) got.lock.release();
    expect(readdirSync(dir)).toEqual(['precious']);
    expect(readFileSync(join(dir, 'precious'), 'utf8')).toBe('keep me');
  });

  it('an empty folder at the lock path is taken over and removed, no .stale folder left behind', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    mkdirSync(path);
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    expect(readdirSync(dir)).toEqual(['x.lock']);
    if (got.acquired) got.lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder with files in it is not emptied: refused naming it, left where it was', () => {
    const dir = tempDir();
    const path = join(dir, 'x.lock');
    mkdirSync(path);
    writeFileSync(join(path, 'data'), 'x');
    expect(() => tryLock(path)).toThrow(LockPathTaken);
    expect(() => tryLock(path)).toThrow(`${path} is a folder with files in it, not a lock file`);
    expect(readdirSync(dir)).toEqual(['x.lock']);
    expect(readdirSync(path)).toEqual(['data']);
  });
});
