/**
 * A lock file held for the length of a run (`batch run` on one input, `events tail` on one cursor),
 * so two overlapping runs (a cron job that outlived its slot) never do the same paid or delivered work
 * twice. Node has no flock: the lock is a file created with O_EXCL holding the holder's pid, host and
 * start time. A lock whose process is gone (kill -9, power loss) is stale and taken over; a live one is
 * respected, however old (a batch run may wait for hours). A lock from another host cannot be checked
 * and is respected too; the caller's message names its file, to remove by hand.
 *
 * Time here is the wall clock, not an injected one: the lock is shared with other processes.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive } from './process-alive.js';

/** Who holds a lock, as written in its file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601 time the lock was taken. */
  since: string;
}

/** A lock this process holds. */
export interface FileLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. Never throws; safe to call twice. */
  release(): void;
}

export type LockAttempt =
  | { acquired: true; lock: FileLock }
  /** `holder` is undefined when the lock file is being written right now (or unreadable). */
  | { acquired: false; holder: LockHolder | undefined };

interface LockFileData extends LockHolder {
  /** Unique per acquisition, so a release or a takeover never removes someone else's lock. */
  id: string;
}

/** An unreadable lock file younger than this is taken to be in the middle of being written. */
const UNREADABLE_GRACE_MS = 10_000;

// Locks held by this process: removed by an 'exit' hook too, for the exits that skip `finally`
// (a second Ctrl-C forcing the exit).
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [path, id] of held) removeIfOurs(path, id);
  });
}

function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parse(raw: string | undefined): LockFileData | undefined {
  if (!raw) return undefined;
  try {
    const d = JSON.parse(raw) as Partial<LockFileData>;
    if (typeof d.id === 'string' && typeof d.pid === 'number' && typeof d.host === 'string' && typeof d.since === 'string') return d as LockFileData;
  } catch {
    // Junk, or half written: judged by age below.
  }
  return undefined;
}

function removeIfOurs(path: string, id: string): void {
  try {
    if (parse(readRaw(path))?.id === id) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** True when the process that wrote this lock is known to be gone. */
function isStale(path: string, data: LockFileData | undefined): boolean {
  if (!data) {
    try {
      return Date.now() - statSync(path).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return false;
    }
  }
  if (data.host !== hostname()) return false;
  if (data.pid === process.pid) return !held.has(path);
  return !processAlive(data.pid);
}

/**
 * Takes the lock at `path` if it is free or stale; otherwise says who holds it. Never waits. The
 * folder must exist; a failure to create the file for another reason (EACCES, EROFS...) is thrown.
 */
export function tryLock(path: string): LockAttempt {
  const mine: LockFileData = { id: randomBytes(8).toString('hex'), pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(mine)}\n`);
      } finally {
        closeSync(fd);
      }
      held.set(path, mine.id);
      installExitHook();
      return {
        acquired: true,
        lock: {
          path,
          release() {
            if (held.get(path) !== mine.id) return;
            held.delete(path);
            removeIfOurs(path, mine.id);
          },
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const raw = readRaw(path);
    if (raw === undefined && attempt < 4) continue; // released meanwhile: try again
    const data = parse(raw);
    if (!isStale(path, data)) return { acquired: false, holder: data };
    // Take over a stale lock without a race against another process doing the same: move it aside
    // under a unique name, then check that what was moved is the lock judged stale. If a fresh lock
    // replaced it in between, it is put back (link fails rather than overwrite a newer one).
    const aside = `${path}.${mine.id}.stale`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // someone else moved it first
    }
    const moved = readRaw(aside);
    if (moved !== raw) {
      try {
        linkSync(aside, path);
      } catch {
        // A newer lock is in place already.
      }
      try {
        unlinkSync(aside);
      } catch {
        // Gone.
      }
      return { acquired: false, holder: parse(moved) };
    }
    try {
      unlinkSync(aside);
    } catch {
      // Gone.
    }
  }
  return { acquired: false, holder: parse(readRaw(path)) };
}

/** "process 4242 on this machine, since 2026-11-22T10:00:00.000Z" (or on host x). */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'a process that is starting right now';
  const where = holder.host === hostname() ? 'on this machine' : `on ${holder.host}`;
  return `process ${holder.pid} ${where}, since ${holder.since}`;
}
