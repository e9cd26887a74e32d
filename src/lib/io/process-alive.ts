// Whether a process of this machine still runs, for what a crashed run left behind (locks, temp files). A pid
// alone is weak evidence (reused after a reboot or a container restart), so the boot id and start time (Linux
// /proc) are compared too, or else the time the file was last written; without /proc (macOS) only the pid.
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  boot?: string | undefined;
  start?: string | undefined;
  /** A time (ms since the epoch) the holder was known to run: a process started later is another one. */
  seenAt?: number | undefined;
}

function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

let cachedBoot: string | undefined | null = null;

export function bootId(): string | undefined {
  if (cachedBoot === null) cachedBoot = readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
  return cachedBoot;
}

/**
 * `/proc/PID/stat` from field 3 on (the command name, field 2, may hold spaces and parentheses: counted after its last
 * ')').
 */
function statFields(pid: number): string[] | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `/proc/PID/stat` field 22: the start time in clock ticks since boot. */
export function processStart(pid: number): string | undefined {
  const start = statFields(pid)?.[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** Field 3, the state: Z (zombie) or X (dead) is a process killed and not yet reaped by its parent. */
function finished(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === 'Z' || state === 'X';
}

export function processIdentity(pid = process.pid): { boot?: string; start?: string } {
  const boot = bootId();
  const start = processStart(pid);
  return { ...(boot ? { boot } : {}), ...(start ? { start } : {}) };
}

// USER_HZ: the unit of /proc's tick counts, fixed at 100 by the kernel's user-space interface.
const TICKS_PER_SECOND = 100;

function startedAtMs(pid: number): number | undefined {
  const start = processStart(pid);
  const btime = /^btime (\d+)$/m.exec(readProc('/proc/stat') ?? '')?.[1];
  if (start === undefined || btime === undefined) return undefined;
  return Number(btime) * 1000 + (Number(start) * 1000) / TICKS_PER_SECOND;
}

/**
 * The one liveness rule of this machine's processes (file locks, temp files, the store's holders): false when
 * `pid` is gone, a zombie, or known not to be the process described; EPERM (another user's process) counts as alive. */
export function processAlive(pid: number, identity: ProcessIdentity = {}): boolean {
  const boot = bootId();
  if (identity.boot !== undefined && boot !== undefined && identity.boot !== boot) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // kill(pid, 0) succeeds on a zombie: it holds its pid until reaped, but runs nothing and holds nothing.
  if (finished(pid)) return false;
  if (identity.start !== undefined) {
    const now = processStart(pid);
    if (now !== undefined && now !== identity.start) return false;
  } else if (identity.seenAt !== undefined) {
    const started = startedAtMs(pid);
    if (started !== undefined && started > identity.seenAt + 1000) return false;
  }
  return true;
}
