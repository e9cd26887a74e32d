import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHolder, tryLock } from '../../../src/lib/io/lock.js';
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

  it('respects a live process however old its lock, and a lock from another host', () => {
    const path = join(tempDir(), 'x.lock');
    // pid 1 is always alive (kill(1, 0) answers EPERM or nothing, never ESRCH).
    writeFileSync(path, JSON.stringify({ id: 'a', pid: 1, host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
    expect(tryLock(path)).toEqual({ acquired: false, holder: { id: 'a', pid: 1, host: hostname(), since: '2020-01-01T00:00:00.000Z' } });
    writeFileSync(path, JSON.stringify({ id: 'b', pid: deadPid(), host: 'elsewhere.example', since: '2020-01-01T00:00:00.000Z' }));
    const other = tryLock(path);
    expect(other.acquired).toBe(false);
    if (!other.acquired) expect(describeHolder(other.holder)).toContain('on elsewhere.example');
  });

  it('a lock file being written (unreadable, fresh) is held; the same pid not held by this process is stale', () => {
    const path = join(tempDir(), 'x.lock');
    writeFileSync(path, '');
    expect(tryLock(path)).toEqual({ acquired: false, holder: undefined });
    // Left by an earlier process that had this pid (a restarted container): not ours, so stale.
    writeFileSync(path, JSON.stringify({ id: 'c', pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z' }));
    const got = tryLock(path);
    expect(got.acquired).toBe(true);
    if (got.acquired) got.lock.release();
  });
});
