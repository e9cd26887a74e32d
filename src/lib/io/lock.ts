/**
 * The one lock: an O_EXCL file (Node has no flock) naming its holder's pid, host, boot id and start time.
 * `tryLock` never waits (a `batch run` input, an `events tail` cursor); `withLock` waits and renews (login).
 * Stale, so taken over: no process has the pid, the machine rebooted since (boot id), or the pid's process
 * started at another time (pid reused: pid 1 after a container restart) or, lacking those, after the lock was
 * last written. A live holder is respected however old its lock (a batch run may take hours) unless
 * `staleAfterMs` is given; one on another host cannot be checked and is respected. Whatever this code never
 * writes at the path (a symlink, a folder, a FIFO) holds nothing and is removed (a folder only when empty).
 * Wall clock, not an injected one: the lock is shared with other processes.
 */
import {
  closeSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { hostname } from 'node:os';
import { processAlive, processIdentity } from './process-alive.js';

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

export interface FileLock {
  readonly path: string;
  release(): void;
}

export type LockAttempt =
  | { acquired: true; lock: FileLock }
  /** `holder` undefined: the file is being written right now, or unreadable. */
  | { acquired: false; holder: LockHolder | undefined };

export interface LockOptions {
  staleAfterMs?: number | undefined;
}

interface LockFileData extends LockHolder {
  /** Unique per acquisition: a release or a takeover never removes someone else's lock. */
  id: string;
  boot?: string | undefined;
  start?: string | undefined;
  at?: number | undefined;
}

interface Found {
  data: LockFileData | undefined;
  raw: string | undefined;
  foreign: 'symlink' | 'folder' | 'other' | undefined;
  fingerprint: string;
  mtimeMs: number;
}

/** An unreadable lock file younger than this is taken to be still being written. */
const UNREADABLE_GRACE_MS = 10_000;

// Locks this process holds; an 'exit' hook removes them too, for exits that skip `finally` (a second Ctrl-C).
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
    return undefined;
  }
}

function fingerprintOf(st: Stats, path: string): string {
  let target = '';
  if (st.isSymbolicLink()) {
    try {
      target = readlinkSync(path);
    } catch {}
  }
  // Not the change time: the rename that moves a lock aside changes it.
  return `${st.ino}:${st.mtimeMs}:${st.size}:${target}`;
}

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
  } catch {}
}

function isStale(path: string, found: Found, options: LockOptions): boolean {
  if (found.foreign !== undefined) return true;
  const { data } = found;
  if (!data) return Date.now() - found.mtimeMs > UNREADABLE_GRACE_MS;
  if (options.staleAfterMs !== undefined && Date.now() - (data.at ?? Date.parse(data.since)) > options.staleAfterMs)
    return true;
  if (data.host !== hostname()) return false;
  if (data.pid === process.pid && (data.start === undefined || data.start === processIdentity().start))
    return held.get(path) !== data.id;
  return !processAlive(data.pid, { boot: data.boot, start: data.start, seenAt: found.mtimeMs });
}

export class LockPathTaken extends Error {
  constructor(readonly path: string) {
    super(`${path} is a folder with files in it, not a lock file`);
    this.name = 'LockPathTaken';
  }
}

// Moves a stale lock aside and removes it, safe against another process doing the same: if what was moved
// is not the lock judged stale, it goes back (`link` fails rather than overwrite a newer one).
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
      } catch {}
      try {
        unlinkSync(aside);
      } catch {}
    } else {
      try {
        renameSync(aside, path);
      } catch {}
    }
    return false;
  }
  try {
    if (moved.foreign === 'folder') rmdirSync(aside);
    else unlinkSync(aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (err as NodeJS.ErrnoException).code === 'EEXIST') {
      // Files in it: not ours to delete. Put back, and say so.
      try {
        renameSync(aside, path);
      } catch {}
      throw new LockPathTaken(path);
    }
  }
  return true;
}

/** Takes the lock if free or stale, else says who holds it; never waits. Other open failures (EACCES, EROFS) throw. */
export function tryLock(path: string, options: LockOptions = {}): LockAttempt {
  const now = Date.now();
  const mine: LockFileData = {
    id: process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex'),
    pid: process.pid,
    host: hostname(),
    since: new Date(now).toISOString(),
    at: now,
    ...processIdentity(),
  };
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
  staleAfterMs: number;
  waitMs: number;
  timedOut: () => Error;
  renewEveryMs?: number | undefined;
}

/** Runs `fn` holding the lock, trying every 50 ms (injected sleep) while another process holds it. */
export async function withLock<T>(
  path: string,
  ports: WaitPorts,
  o: WithLockOptions,
  fn: () => Promise<T>,
): Promise<T> {
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

/** Temp file + rename: a reader sees the old time or the new one, never half a file. */
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

export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'a process that is starting right now';
  const where = holder.host === hostname() ? 'on this machine' : `on ${holder.host}`;
  return `process ${holder.pid} ${where}, since ${holder.since}`;
}
