/**
 * Whether a process of this machine still runs, for files a crashed run left behind (locks, temporary
 * output files). A pid alone is weak evidence: after a reboot or a container restart the same pid
 * (pid 1 above all) belongs to another process. So a holder is recorded with the machine's boot id
 * and its process's start time (Linux `/proc`), and, for files written before that was recorded, the
 * time the file was last written: a process that started after it cannot be the one that wrote it.
 * Where `/proc` is missing (macOS) only the pid is checked.
 */
import { readFileSync } from 'node:fs';

/** Who a process is, beyond its pid: what makes a reused pid tell itself apart. */
export interface ProcessIdentity {
  /** The machine's boot id (`/proc/sys/kernel/random/boot_id`) when the holder wrote it. */
  boot?: string | undefined;
  /** The holder's start time in clock ticks since boot (`/proc/PID/stat` field 22). */
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

/** This machine's boot id, or undefined where there is none (not Linux, no /proc). */
export function bootId(): string | undefined {
  if (cachedBoot === null) cachedBoot = readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
  return cachedBoot;
}

/** The start time of `pid` in clock ticks since boot (`/proc/PID/stat` field 22), or undefined. */
export function processStart(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = rest[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** What to record about this process (or `pid`) so a later reader can tell a reused pid apart. */
export function processIdentity(pid = process.pid): { boot?: string; start?: string } {
  const boot = bootId();
  const start = processStart(pid);
  return { ...(boot ? { boot } : {}), ...(start ? { start } : {}) };
}

// USER_HZ: the unit of /proc's tick counts, fixed at 100 by the kernel's user-space interface.
const TICKS_PER_SECOND = 100;

/** When `pid` started (ms since the epoch), from the boot time and its start ticks; undefined without /proc. */
function startedAtMs(pid: number): number | undefined {
  const start = processStart(pid);
  const btime = /^btime (\d+)$/m.exec(readProc('/proc/stat') ?? '')?.[1];
  if (start === undefined || btime === undefined) return undefined;
  return Number(btime) * 1000 + (Number(start) * 1000) / TICKS_PER_SECOND;
}

/**
 * True unless the process `pid` is known not to be the one described: no process has the pid
 * (ESRCH), the machine has rebooted since (`boot`), the pid's process started at another time
 * (`start`), or it started after `seenAt` (a second's slack for clock rounding). A process of another
 * user (EPERM) counts as alive. Without `identity`, the pid alone decides (as the store's claims ask).
 */
export function processAlive(pid: number, identity: ProcessIdentity = {}): boolean {
  const boot = bootId();
  if (identity.boot !== undefined && boot !== undefined && identity.boot !== boot) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (identity.start !== undefined) {
    const now = processStart(pid);
    if (now !== undefined && now !== identity.start) return false;
  } else if (identity.seenAt !== undefined) {
    const started = startedAtMs(pid);
    if (started !== undefined && started > identity.seenAt + 1000) return false;
  }
  return true;
}
