/**
 * The one lock of the CLI: a file created with O_EXCL holding the holder's pid, host, boot id, process
 * start time and time taken (Node has no flock). Held for a whole run (`batch run` on one input,
 * `events tail` on one cursor: `tryLock`, never waits) or around a login refresh (`withLock`: waits
 * its turn, renews the lock while held).
 *
 * A lock whose process is gone is stale and taken over: no process has its pid, the machine rebooted
 * since (boot id), or the pid now belongs to a process that started at another time (a reused pid:
 * pid 1 after a reboot or a container restart); for a lock written without those, a process that
 * started after the lock was last written is not its holder. A live holder is respected however old
 * its lock (a batch run may wait for hours), unless the caller gives `staleAfterMs` (the login lock,
 * renewed by its holder). A lock from another host cannot be checked and is respected; the caller's
 * message names its file, to remove by hand.
 *
 * Something at the lock's path that this code never writes (a symbolic link, dangling or not, a
 * folder, a FIFO) holds nothing: it is moved aside and removed (a folder only when empty; a folder with
 * files in it is refused, naming it), so it never blocks every later run.
 *
 * Time here is the wall clock, not an injected one: the lock is shared with other processes.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, openSync, readFileSync, readlinkSync, renameSync, rmdirSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive, processIdentity } from './process-alive.js';

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

export interface LockOptions {
  /**
   * A lock not written for this long (ms, wall clock) is stale whoever holds it: for locks whose
   * holder renews them (`withLock`). Without it a live holder is respected however old its lock.
   */
  staleAfterMs?: number | undefined;
}

interface LockFileData extends LockHolder {
  /** Unique per acquisition, so a release or a takeover never removes someone else's lock. */
  id: string;
  /** The machine's boot id and the holder's start time (Linux), so a reused pid is seen as another process. */
  boot?: string | undefined;
  start?: string | undefined;
  /** When the lock was taken or last renewed (ms since the epoch). */
  at?: number | undefined;
}

/** The lock as found at its path: what it says, what it is, and how to tell it was not replaced. */
interface Found {
  data: LockFileData | undefined;
  /** The raw text of a regular file; undefined for anything else or an unreadable file. */
  raw: string | undefined;
  /** Not a regular file (a symbolic link, a folder...): never one of ours. */
  foreign: 'symlink' | 'folder' | 'other' | undefined;
  /** Identity of the entry itself (inode, change time, link target): a replaced lock differs. */
  fingerprint: string;
  mtimeMs: number;
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

function parse(raw: string | undefined): LockFileData | undefined {
  if (!raw) return undefined;
  try {
    const d = JSON.parse(raw) as Partial<LockFileData> & { at?: unknown };
    if (typeof d.id !== 'string' || typeof d.pid !== 'number' || typeof d.host !== 'string') return undefined;
    // The login lock of earlier versions wrote only `at` (ms); the run lock only `since`.
    const at = typeof d.at === 'number' ? d.at : undefined;
    const since = typeof d.since === 'string' ? d.since : at !== undefined ? new Date(at).toISOString() : undefined;
    if (since === undefined) return undefined;
    return {
      id: d.id,
      pid: d.pid,
      host: d.host,
      since,
      ...(typeof d.boot === 'string' ? { boot: d.boot } : {}),
      ...(typeof d.start === 'string' ? { start: d.start } : {}),
      ...(at !== undefined ? { at } : {}),
    };
  } catch {
    // Junk, or half written: judged by age.
    return undefined;
  }
}

function fingerprintOf(st: Stats, path: string): string {
  let target = '';
  if (st.isSymbolicLink()) {
    try {
      target = readlinkSync(path);
    } catch {
      // Gone meanwhile: the inode says enough.
    }
  }
  // Not the change time: the rename that moves a lock aside changes it.
  return `${st.ino}:${st.mtimeMs}:${st.size}:${target}`;
}

/** What is at `path` now, or undefined when nothing is. */
function look(path: string): Found | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  const fingerprint = fingerprintOf(st, path);
  if (!st.isFile()) {
    const foreign = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'folder' : 'other';
    return { data: undefined, raw: undefined, foreign, fingerprint, mtimeMs: st.mtimeMs };
  }
  let raw: string | undefined;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    raw = undefined;
  }
  return { data: parse(raw), raw, foreign: undefined, fingerprint: `${fingerprint}:${raw ?? ''}`, mtimeMs: st.mtimeMs };
}

function removeIfOurs(path: string, id: string): void {
  try {
    if (look(path)?.data?.id === id) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** True when the lock found is known to hold nothing any more. */
function isStale(path: string, found: Found, options: LockOptions): boolean {
  if (found.foreign !== undefined) return true;
  const { data } = found;
  if (!data) return Date.now() - found.mtimeMs > UNREADABLE_GRACE_MS;
  if (options.staleAfterMs !== undefined && Date.now() - (data.at ?? Date.parse(data.since)) > options.staleAfterMs) return true;
  if (data.host !== hostname()) return false;
  if (data.pid === process.pid && (data.start === undefined || data.start === processIdentity().start)) return held.get(path) !== data.id;
  return !processAlive(data.pid, { boot: data.boot, start: data.start, seenAt: found.mtimeMs });
}

/** Thrown when the lock's path holds a folder with files in it: not a lock, and not ours to empty. */
export class LockPathTaken extends Error {
  constructor(readonly path: string) {
    super(`${path} is a folder with files in it, not a lock file`);
    this.name = 'LockPathTaken';
  }
}

/**
 * Moves a stale lock aside and removes it, without a race against another process doing the same:
 * what was moved must be the lock judged stale; if a fresh lock replaced it in between, it is put
 * back (`link` fails rather than overwrite a newer one). False when someone else got there first or
 * a newer lock was found.
 */
function takeOver(path: string, judged: Found, id: string): boolean {
  const aside = `${path}.${id}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // someone else moved it first
  }
  const moved = look(aside);
  if (moved?.fingerprint !== judged.fingerprint) {
    if (moved?.foreign !== 'folder') {
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
    } else {
      try {
        renameSync(aside, path);
      } catch {
        // Something else took the path meanwhile: the folder stays aside, named in no message.
      }
    }
    return false;
  }
  try {
    if (moved.foreign === 'folder') rmdirSync(aside);
    else unlinkSync(aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (err as NodeJS.ErrnoException).code === 'EEXIST') {
      // Files in it: not ours to delete. Put back where it was, and say so.
      try {
        renameSync(aside, path);
      } catch {
        // The path was taken meanwhile.
      }
      throw new LockPathTaken(path);
    }
  }
  return true;
}

/**
 * Takes the lock at `path` if it is free or stale; otherwise says who holds it. Never waits. The
 * folder must exist; a failure to create the file for another reason (EACCES, EROFS...) is thrown,
 * and so is `LockPathTaken` (a folder with files in it at the lock's path).
 */
export function tryLock(path: string, options: LockOptions = {}): LockAttempt {
  const now = Date.now();
  const mine: LockFileData = { id: randomBytes(8).toString('hex'), pid: process.pid, host: hostname(), since: new Date(now).toISOString(), at: now, ...processIdentity() };
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
    const found = look(path);
    if (found === undefined) continue; // released meanwhile: try again
    if (found.raw === undefined && found.foreign === undefined && attempt < 4) continue;
    if (!isStale(path, found, options)) return { acquired: false, holder: found.data };
    if (!takeOver(path, found, mine.id)) {
      const now = look(path);
      if (now !== undefined && now.fingerprint !== found.fingerprint) return { acquired: false, holder: now.data };
    }
  }
  return { acquired: false, holder: look(path)?.data };
}

export interface WaitPorts {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
}

export interface WithLockOptions {
  /** A lock not renewed for this long is stale whoever holds it; the holder renews every third of it. */
  staleAfterMs: number;
  /** How long to wait for the holder before `timedOut()` is thrown. */
  waitMs: number;
  /** The error thrown after waiting `waitMs`. */
  timedOut: () => Error;
  /** How often the lock is renewed while held (default: a third of `staleAfterMs`). */
  renewEveryMs?: number | undefined;
}

/**
 * Runs `fn` holding the lock at `path`, waiting (50 ms steps, the injected sleep) while another
 * process holds it. While held, the lock is renewed, so a slow holder is not taken for a crashed one.
 */
export async function withLock<T>(path: string, ports: WaitPorts, o: WithLockOptions, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let lock: FileLock;
  for (;;) {
    const attempt = tryLock(path, { staleAfterMs: o.staleAfterMs });
    if (attempt.acquired) {
      lock = attempt.lock;
      break;
    }
    if (Date.now() - started > o.waitMs) throw o.timedOut();
    await ports.sleep(50, ports.signal);
    // Let the holder's I/O run even when the injected sleep returns at once (tests).
    await new Promise((resolve) => setImmediate(resolve));
  }
  const renew = setInterval(() => renewLock(path), o.renewEveryMs ?? o.staleAfterMs / 3);
  renew.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    lock.release();
  }
}

/** Writes the time again into a lock this process holds (temp file + rename: readers see one or the other). */
function renewLock(path: string): void {
  const id = held.get(path);
  const data = look(path)?.data;
  if (id === undefined || data?.id !== id) return;
  try {
    const temp = `${path}.${id}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ ...data, at: Date.now() })}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // A renewal that fails leaves the older time: at worst the lock is judged stale later.
  }
}

/** "process 4242 on this machine, since 2026-11-22T10:00:00.000Z" (or on host x). */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'a process that is starting right now';
  const where = holder.host === hostname() ? 'on this machine' : `on ${holder.host}`;
  return `process ${holder.pid} ${where}, since ${holder.since}`;
}
