/**
 * Whether a process of this machine still runs, for files a crashed run left behind (run locks,
 * temporary output files): true unless `pid` is known not to exist. A process of another user
 * (EPERM) counts as alive; so does a pid reused since, which only delays a clean-up.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
